// SPDX-License-Identifier: Apache-2.0
import Dispatch

extension Array where Element: Sendable {
    /// `count` elements, element `index` being `make(index)`, made on every core `chunk` at a time
    /// (`DispatchQueue.concurrentPerform`): for CPU work over many small items (a digest, a stat), where
    /// a turn of the pool for each would cost more than the item.
    package init(count: Int, madeOnEveryCore make: @Sendable (Int) -> Element, chunk: Int = 1024) {
        // Each chunk's elements join the others under a lock (one turn a chunk), which ThreadSanitizer sees.
        let chunks = Locked([[Element]](repeating: [], count: (count + chunk - 1) / chunk))
        DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { part in
            let elements = (part * chunk..<Swift.min(part * chunk + chunk, count)).map(make)
            chunks.withLock { $0[part] = elements }
        }
        self = chunks.withLock { $0 }.flatMap { $0 }
    }
}

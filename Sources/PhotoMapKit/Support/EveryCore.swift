import Dispatch

extension Array where Element: Sendable {
    /// `count` elements, element `index` being `make(index)`, made on every core `chunk` at a time
    /// (`DispatchQueue.concurrentPerform`): for CPU work over many small items (a digest, a stat), where
    /// a turn of the pool for each would cost more than the item.
    init(count: Int, madeOnEveryCore make: @Sendable (Int) -> Element, chunk: Int = 1024) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return initialized = 0 }
            let elements = Elements(base: base)
            DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { part in
                for index in part * chunk..<Swift.min(part * chunk + chunk, count) {
                    (elements.base + index).initialize(to: make(index))
                }
            }
            initialized = count
        }
    }
}

/// The array being made: each chunk initializes only its own elements, so no two threads touch the same memory.
private struct Elements<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
}

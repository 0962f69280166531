// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// A value being made on another thread (a listing's page read while the next is asked for): `wait()`
/// gives it, or throws what making it threw.
package final class Pending<Value: Sendable>: Sendable {
    private let outcome = Locked<Result<Value, any Error>?>(nil)
    private let made = DispatchGroup()

    /// Starts `make` on the global queue.
    package init(_ make: @escaping @Sendable () throws -> Value) {
        let outcome = outcome
        DispatchQueue.global().async(group: made) {
            let made = Result(catching: make)
            outcome.withLock { $0 = made }
        }
    }

    /// The value, once made.
    package func wait() throws -> Value {
        made.wait()
        return try outcome.withLock { $0 ?? .failure(CancellationError()) }.get()
    }
}

import Dispatch

/// A value being made on another thread (a listing's page read while the next is asked for): `wait()`
/// gives it, or throws what making it threw.
final class Pending<Value: Sendable>: @unchecked Sendable {
    // `work` is only run and waited for; the outcome is reached only through its lock.
    private let outcome = Locked<Result<Value, any Error>?>(nil)
    private let work: DispatchWorkItem

    /// Starts `make` on the global queue.
    init(_ make: @escaping @Sendable () throws -> Value) {
        let outcome = outcome
        work = DispatchWorkItem {
            let made = Result(catching: make)
            outcome.withLock { $0 = made }
        }
        DispatchQueue.global().async(execute: work)
    }

    /// The value, once made.
    func wait() throws -> Value {
        work.wait()
        return try outcome.withLock { $0 ?? .failure(CancellationError()) }.get()
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One piece of shared state and the lock that guards it: the state is reached only inside
/// `withLock`. The toolchain's `Synchronization.Mutex` does the same, but on Linux a contended
/// Mutex waits on a futex inside a library ThreadSanitizer does not instrument, so TSan cannot see
/// the lock and reports the state it guards as raced. This one locks a pthread mutex (through
/// NSLock), which TSan understands: `scripts/sanitize thread` sees photomap's real races, and only those.
public final class Locked<Value> {
    // `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// Shared state starting at `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the state, the lock held; what it returns or throws comes out.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Shared between threads only when its value may be (as swift-nio's `NIOLockedValueBox`): a lock makes
/// access exclusive, not a value that is unsafe to move between threads safe.
extension Locked: @unchecked Sendable where Value: Sendable {}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A semaphore of bytes: threads take what they are about to hold (a file's bytes, a decode's buffers)
/// and give it back when done, so that together they never hold more than `capacity`, however many
/// there are. Waiters are served in turn (a large request is not passed over by small ones for ever).
///
/// A thread holding bytes must not wait for more (two such threads could wait for each other): it asks
/// with `reserveNow`, and when that fails gives back what it holds and waits for the whole with `reserve`.
package final class ByteBudget: @unchecked Sendable {
    /// The most that may be held at once.
    package let capacity: Int
    // `available`, `nextTicket` and `serving` are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var available: Int
    /// The turn the next waiter takes, and the turn now served.
    private var nextTicket = 0
    private var serving = 0

    /// A budget of `capacity` bytes, all free.
    package init(capacity: Int) {
        self.capacity = capacity
        available = capacity
    }

    /// Takes `bytes`, waiting (in turn) until enough are given back; false at once, taking nothing,
    /// when `bytes` is more than the whole capacity (no wait could ever give it).
    package func reserve(_ bytes: Int) -> Bool {
        guard bytes <= capacity else { return false }
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket += 1
        while ticket != serving || available < bytes { condition.wait() }
        available -= bytes
        serving += 1
        // The next in turn may fit in what is left.
        condition.broadcast()
        return true
    }

    /// Takes `bytes` if they are free now and nobody waits; false, taking nothing, otherwise.
    package func reserveNow(_ bytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard serving == nextTicket, available >= bytes else { return false }
        available -= bytes
        return true
    }

    /// Gives back `bytes` taken before.
    package func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        condition.lock()
        available += bytes
        condition.broadcast()
        condition.unlock()
    }

    /// The bytes free now.
    package var free: Int {
        condition.lock()
        defer { condition.unlock() }
        return available
    }

    /// How many wait in `reserve` now.
    package var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return nextTicket - serving
    }
}

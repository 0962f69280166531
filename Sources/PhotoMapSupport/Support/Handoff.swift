// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A producer on a thread of its own handing items to the caller one at a time, at most one waiting: the
/// producer makes the next while the caller works on this one, and never gets further ahead (so at most
/// three items live at once: one made, one waiting, one worked on). Ends with the producer's result or
/// error; the caller giving up stops the producer at its next hand-over, and `run` returns only once the
/// producer's thread has ended.
package enum Handoff {
    /// The caller giving up, thrown into the producer to unwind it.
    struct Abandoned: Error {}

    /// Runs `produce` on another thread, `consume` here with each item it hands (in order), and returns
    /// what `produce` returns; the first error of either is thrown. `produce` ends before this returns.
    package static func run<Item, Result>(
        produce: @escaping (_ hand: (Item) throws -> Void) throws -> Result, consume: (Item) throws -> Void
    ) throws -> Result {
        let slot = Slot<Item, Result>(produce)
        let thread = Thread { slot.produce() }
        thread.start()
        defer { slot.waitForEnd() }
        do {
            while let item = slot.take() { try consume(item) }
        } catch {
            slot.abandon()
            throw error
        }
        return try slot.outcome().get()
    }

    /// The one-item slot between the two threads, guarded by its condition.
    private final class Slot<Item, Result>: @unchecked Sendable {
        // Called on the producer's thread only.
        private let producer: (_ hand: (Item) throws -> Void) throws -> Result
        private let condition = NSCondition()
        // All below only with `condition` locked.
        private var item: Item?
        private var ended: Swift.Result<Result, any Error>?
        private var abandoned = false

        init(_ producer: @escaping (_ hand: (Item) throws -> Void) throws -> Result) {
            self.producer = producer
        }

        /// Runs the producer to its end, on its thread.
        func produce() {
            end(Swift.Result { try producer { item in try put(item) } })
        }

        func put(_ value: Item) throws {
            condition.lock()
            defer { condition.unlock() }
            while item != nil, !abandoned { condition.wait() }
            if abandoned { throw Abandoned() }
            item = value
            condition.broadcast()
        }

        /// The next item, or nil once the producer has ended and none is left.
        func take() -> Item? {
            condition.lock()
            defer { condition.unlock() }
            while item == nil, ended == nil { condition.wait() }
            defer {
                item = nil
                condition.broadcast()
            }
            return item
        }

        func end(_ outcome: Swift.Result<Result, any Error>) {
            condition.lock()
            defer { condition.unlock() }
            ended = outcome
            condition.broadcast()
        }

        func abandon() {
            condition.lock()
            defer { condition.unlock() }
            abandoned = true
            condition.broadcast()
        }

        func waitForEnd() {
            condition.lock()
            defer { condition.unlock() }
            while ended == nil { condition.wait() }
        }

        func outcome() -> Swift.Result<Result, any Error> {
            condition.lock()
            defer { condition.unlock() }
            return ended ?? .failure(Abandoned())
        }
    }
}

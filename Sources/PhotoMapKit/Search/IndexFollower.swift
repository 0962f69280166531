// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapSupport

/// Keeps the search index up with a long run of catalog changes (a records import's batches) on a thread
/// of its own, so that the index's writes for one batch overlap the catalog's writes for the next: on
/// PostgreSQL two server processes work at once, on SQLite two files. One change is applied at a time, in
/// the order given; handing another waits until the one before is done, so at most one batch is held.
/// The catalog is read only by the caller (`CatalogIndexer.localChange`); the index only here.
public final class IndexFollower: @unchecked Sendable {
    // The indexer's index is used on `queue` only, once handed over at init.
    private let indexer: CatalogIndexer
    private let adapter: AnnotationAdapter
    private let queue = DispatchQueue(label: "photomap.index-follower")
    /// Taken by a change handed, given back when it is applied: one in flight at most.
    private let room = DispatchSemaphore(value: 1)
    /// The first failure, and whether every change so far met the index where the one before left it.
    private let state = Locked((failure: (any Error)?.none, inStep: true))

    /// A follower writing with `indexer`, which nothing else uses until `finish`.
    public init(_ indexer: CatalogIndexer, adapter: AnnotationAdapter) {
        self.indexer = indexer
        self.adapter = adapter
    }

    /// Queues `change`, once the one before is applied; throws the failure of an earlier one.
    public func hand(_ change: LocalIndexChange) throws {
        room.wait()
        if let failure = state.withLock({ $0.failure }) {
            room.signal()
            throw failure
        }
        queue.async { [self] in
            defer { room.signal() }
            // After a failure or a change that did not meet the index, the rest are left to `ensureLocal`.
            guard state.withLock({ $0.failure == nil && $0.inStep }) else { return }
            do {
                let inStep = try indexer.apply(change, adapter: adapter)
                state.withLock { $0.inStep = inStep }
            } catch {
                state.withLock { $0.failure = error }
            }
        }
    }

    /// Waits for every change handed; throws the first failure, else tells whether the index followed
    /// each one (false: the index was changed by someone else, and must be made again whole).
    public func finish() throws -> Bool {
        queue.sync {}
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.inStep
        }
    }
}

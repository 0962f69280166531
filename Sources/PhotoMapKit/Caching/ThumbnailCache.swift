// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapSupport
import Synchronization

/// Square thumbnails fetched on demand and kept on disk, shared by every command and the server.
///
/// A request is a hit (the file is whole on disk), joins a download in flight for the same image
/// (cancelling one requester leaves the others be), or starts one. Downloads run on the origin's
/// event loop (one curl multi handle, HTTP/2 multiplexed); checking, decoding and storing (and a
/// prefetch's lookups) run on a pool sized to the cores; the bookkeeping (sizes, last uses, eviction)
/// on the journal's queue.
/// One mutex guards the in-flight table and the queue of downloads waiting for a slot. Across
/// processes, an entry's lock (`EntryLocks`) makes each image be fetched once.
public final class ThumbnailCache: Sendable {
    /// The folder holding the entries (`{cache}/thumbs`).
    public var directory: URL { store.root }
    /// The configuration in force.
    public let configuration: Configuration

    let store: DiskStore
    let journal: CacheJournal
    let origin: any ImageOrigin
    let pool = WorkPool()
    let state = Locked(State())

    /// Downloads in flight by key, those waiting for a slot, requesters whose hit is being verified
    /// (by request id, so a cancel finds them), and the entry locks once opened.
    struct State: Sendable {
        var inFlight: [String: Download] = [:]
        var verifying: [Int: Waiter] = [:]
        /// Keys waiting for a slot, oldest first.
        var queued = FIFO<String>()
        var inProgress = 0
        var locks: EntryLocks?
    }

    /// Creates a cache in `{cacheDirectory}/thumbs` fetching from `origin`.
    public init(cacheDirectory: URL, origin: any ImageOrigin, configuration: Configuration = Configuration()) {
        store = DiskStore(root: cacheDirectory.appendingPathComponent("thumbs"))
        journal = CacheJournal(store: store, limitBytes: configuration.limitBytes, warn: configuration.warn)
        self.origin = origin
        self.configuration = configuration
    }

    /// Writes this run's bookkeeping (new entries, uses, hits and misses) to the journal now, and
    /// evicts if the limit is passed; otherwise that happens within `CacheJournal.flushInterval`.
    public func flush() {
        journal.writeAll()
    }
}

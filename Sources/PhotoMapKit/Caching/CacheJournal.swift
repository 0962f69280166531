// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapSupport
import Synchronization

/// The cache's bookkeeping, so that nothing on the request path scans the folder: each entry's size
/// and last use, the folder's totals (kept by triggers), and the hits and misses of every run, in
/// SQLite (`{thumbs}/.journal.sqlite`, WAL, shared by every process using the folder).
///
/// Stores and uses are noted in memory and written in one transaction at most every
/// `flushInterval`, on the journal's serial queue; when a batch takes the folder past its limit,
/// the same queue evicts least-recently-used entries down to `trimRatio` of it. The request path
/// never waits for SQLite or for an eviction. A crash can lose the last batch: files then sit on disk unrecorded. So a
/// process that stores holds a marker file (`.sessions/…`, under `flock`) saying whether it has stores
/// not yet written; the next process to open the journal finds a dead process's marker and, when it
/// said so, reconciles the journal with the disk in the background. A hit on an unrecorded file records
/// it too (once no run has noted a use of it for a minute: see `noteUsed`), and `cache verify`
/// reconciles everything.
final class CacheJournal: Sendable {
    /// The folder's totals, as recorded.
    struct Totals: Equatable {
        var entries = 0
        var bytes = 0
        var counters = Counters()
    }

    /// What is noted but not yet written.
    struct Batch {
        var stored: [String: (bytes: Int, time: Double)] = [:]
        var used: [String: (bytes: Int, time: Double)] = [:]
        var counters = Counters()
        var flushScheduled = false
        /// This process's marker (made at its first store) and whether it says stores are pending; kept
        /// from batch to batch, like the two below.
        var marker: SessionMarker?
        var markerSaysPending = false
        /// A batch of stores could not be written: the marker says "pending" until the process ends.
        var storesLost = false
        /// Entries whose use was noted since `usedSince`: a busy server hits the same squares over and
        /// over, and a last use known to the minute is enough for the LRU order.
        var usedRecently: Set<String> = []
        var usedSince = 0.0
    }

    /// How long a noted use stands for later uses of the same entry.
    static let useResolution: TimeInterval = 60
    /// When this journal was made: an entry changed before was last stored or noted by an earlier run.
    private let started = Date().timeIntervalSince1970

    /// How long notes wait before they are written together.
    static let flushInterval: TimeInterval = 0.05
    /// How long a batch the database refused waits before the next try.
    static let retryInterval: TimeInterval = 0.2

    /// The fraction of the limit an eviction trims down to (Nuke's choice).
    static let trimRatio = 0.7

    let queue = DispatchQueue(label: "photomap.thumbnails.journal")
    let store: DiskStore
    let limitBytes: Int
    let batch = Locked(Batch())
    /// Where a failure to write the journal is told (once per process).
    let warn: @Sendable (String) -> Void
    let reportedFailure = Atomic<Bool>(false)
    /// The database, nil until first needed. Confined to `queue` (or deinit, when nothing else can run):
    /// every method that touches it says "Runs on `queue`", which the compiler cannot check.
    nonisolated(unsafe) var database: SQLiteDatabase?

    init(store: DiskStore, limitBytes: Int, warn: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.limitBytes = limitBytes
        self.warn = warn
    }

    deinit {
        // The last reference is gone, so no other thread can be here: write without the queue.
        writeBatch()
        batch.withLock { batch in
            if !batch.markerSaysPending { batch.marker?.remove() }
        }
    }

    var file: String { store.root.path + "/.journal.sqlite" }
    var sessions: String { store.root.path + "/.sessions" }

    // MARK: - Notes (any thread)

    /// An entry of `bytes` was just stored.
    func noteStored(_ name: String, bytes: Int) {
        note { batch in
            if !batch.markerSaysPending {
                if batch.marker == nil { batch.marker = SessionMarker(folder: sessions) }
                batch.marker?.say(pending: true)
                batch.markerSaysPending = true
            }
            batch.stored[name] = (bytes, Date().timeIntervalSince1970)
        }
    }

    /// An entry of `bytes` was used (a hit). `lastNoted` is the entry's modification time, which a store
    /// sets and so does each noted use (the caller, when this returns true): a use an earlier run noted
    /// within `useResolution` stands, and a run of hits right after another writes no uses at all. This
    /// run's own uses go by `usedRecently`, so the order of what one run stores and uses stays exact.
    @discardableResult
    func noteUsed(_ name: String, bytes: Int, lastNoted: Double? = nil) -> Bool {
        let now = Date().timeIntervalSince1970
        // File times come from the kernel's coarse clock, up to a tick behind: a margin keeps this run's own.
        if let lastNoted, lastNoted < started - 0.02, now - lastNoted < Self.useResolution { return false }
        let due = batch.withLock { batch in
            if now - batch.usedSince > Self.useResolution {
                batch.usedRecently.removeAll(keepingCapacity: true)
                batch.usedSince = now
            }
            return batch.usedRecently.insert(name).inserted
        }
        if due { note { $0.used[name] = (bytes, now) } }
        return due
    }

    /// Adds to the hits, misses, downloads and failures.
    func noteCounters(_ counters: Counters) {
        note { $0.counters = $0.counters.adding(counters) }
    }

    private func note(_ change: (inout Batch) -> Void) {
        scheduleWrite(after: Self.flushInterval, change)
    }

    /// Changes the batch and, unless a write is scheduled already, schedules one.
    func scheduleWrite(after delay: TimeInterval, _ change: (inout Batch) -> Void) {
        let schedule = batch.withLock { batch in
            change(&batch)
            defer { batch.flushScheduled = true }
            return !batch.flushScheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.writeBatch() } }
    }
}

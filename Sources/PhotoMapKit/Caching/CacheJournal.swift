import Dispatch
import Foundation
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
    private struct Batch {
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
    private let store: DiskStore
    private let limitBytes: Int
    private let batch = Locked(Batch())
    /// Where a failure to write the journal is told (once per process).
    private let warn: @Sendable (String) -> Void
    private let reportedFailure = Atomic<Bool>(false)
    /// The database, nil until first needed. Used only on `queue` (or in deinit, when nothing else can):
    /// every method below that touches it says "Runs on `queue`"; the lock, never contended, is what
    /// lets the compiler see that.
    private let database = Locked<SQLiteDatabase?>(nil)

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

    private var file: String { store.root.path + "/.journal.sqlite" }
    private var sessions: String { store.root.path + "/.sessions" }

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
    private func scheduleWrite(after delay: TimeInterval, _ change: (inout Batch) -> Void) {
        let schedule = batch.withLock { batch in
            change(&batch)
            defer { batch.flushScheduled = true }
            return !batch.flushScheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.writeBatch() } }
    }

    /// What became of a batch.
    enum WriteOutcome {
        case written
        /// SQLite was busy (another process writing) past its timeout: the batch waits for a retry.
        case busy
        /// SQLite failed otherwise (a full disk, a read-only folder): the batch is dropped, and its
        /// marker stays behind so that the next process reconciles.
        case failed
    }

    // MARK: - On the queue

    /// Writes everything noted so far, then evicts if the stores took the folder past its limit.
    /// Runs on `queue`.
    @discardableResult
    func writeBatch() -> WriteOutcome {
        let pending = batch.withLock { batch in
            defer {
                batch = Batch(
                    marker: batch.marker, markerSaysPending: batch.markerSaysPending, storesLost: batch.storesLost,
                    usedRecently: batch.usedRecently, usedSince: batch.usedSince)
            }
            return batch
        }
        guard !pending.stored.isEmpty || !pending.used.isEmpty || pending.counters != Counters()
        else { return .written }
        do {
            let database = try opened()
            try database.transaction {
                let upsert = """
                    INSERT INTO entries(name, bytes, used) VALUES (?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET bytes = excluded.bytes, used = max(used, excluded.used)
                    """
                let statement = try database.prepare(upsert)
                // An entry stored and then used in one batch keeps its stored size and its latest time.
                let noted = pending.stored.merging(pending.used) { stored, used in
                    (stored.bytes, max(stored.time, used.time))
                }
                for (name, entry) in noted {
                    try statement.bind([.text(name), .integer(Int64(entry.bytes)), .real(entry.time)])
                    try statement.step()
                }
                let counters = pending.counters
                try database.prepare(
                    """
                    UPDATE totals SET hits = hits + ?, misses = misses + ?, downloads = downloads + ?, failures = failures + ?
                    """,
                    [
                        .integer(Int64(counters.hits)), .integer(Int64(counters.misses)),
                        .integer(Int64(counters.downloads)), .integer(Int64(counters.failures)),
                    ]
                ).step()
            }
            if !pending.stored.isEmpty { markWritten() }
            if !pending.stored.isEmpty, recordedBytes(in: database) > limitBytes {
                evict(downTo: Int(Double(limitBytes) * Self.trimRatio), keeping: Set(pending.stored.keys))
            }
            return .written
        } catch let error as SQLiteError where error.isBusy {
            // Kept for the next try, merged under anything noted meanwhile.
            scheduleWrite(after: Self.retryInterval) { batch in
                batch.stored.merge(pending.stored) { newer, _ in newer }
                batch.used.merge(pending.used) { newer, _ in newer }
                batch.counters = batch.counters.adding(pending.counters)
            }
            return .busy
        } catch {
            if !pending.stored.isEmpty { batch.withLock { $0.storesLost = true } }
            if reportedFailure.exchange(true, ordering: .relaxed) == false {
                warn("the cache's journal could not be written (\(error)); it will be rebuilt from the disk")
            }
            return .failed
        }
    }

    /// After a batch of stores is written: unless stores were noted since (or lost), a crash from here on
    /// loses nothing, and the marker says so (one byte written, not a file made and removed per batch:
    /// on a file system without a journal, ext4 skips each recently removed inode when it makes a file,
    /// and thousands of them slowed every store of a long run).
    private func markWritten() {
        batch.withLock { batch in
            guard batch.markerSaysPending, batch.stored.isEmpty, !batch.storesLost else { return }
            batch.marker?.say(pending: false)
            batch.markerSaysPending = false
        }
    }

    /// Writes everything noted so far, trying again while the database is busy, for up to
    /// `patience` seconds: what a process does before it exits. Runs off `queue`.
    func writeAll(patience: TimeInterval = 10) {
        let deadline = Date().addingTimeInterval(patience)
        while queue.sync(execute: { writeBatch() }) == .busy && Date() < deadline {
            usleep(UInt32(Self.retryInterval * 1e6))
        }
    }

    private func recordedBytes(in database: SQLiteDatabase) -> Int {
        guard let row = try? database.prepare("SELECT bytes FROM totals"), (try? row.step()) == true else { return 0 }
        return Int(row.integer(0) ?? 0)
    }

    /// The totals after everything noted is written.
    func totals() -> Totals {
        queue.sync {
            writeBatch()
            guard let database = try? opened(),
                let row = try? database.prepare("SELECT entries, bytes, hits, misses, downloads, failures FROM totals"),
                (try? row.step()) == true
            else { return Totals() }
            let value = { (column: Int32) in Int(row.integer(column) ?? 0) }
            return Totals(
                entries: value(0), bytes: value(1),
                counters: Counters(hits: value(2), misses: value(3), downloads: value(4), failures: value(5)))
        }
    }

    /// Removes least-recently-used entries (files and records) until at most `maximumBytes` remain,
    /// never one of `keeping` (entries just stored for callers waiting on them); returns what went.
    /// Runs on `queue`.
    @discardableResult
    func evict(downTo maximumBytes: Int, keeping: Set<String> = []) -> (entries: Int, bytes: Int) {
        var removed = (entries: 0, bytes: 0)
        guard let database = try? opened() else { return removed }
        do {
            try database.transaction {
                var bytes = recordedBytes(in: database)
                let oldest = try database.prepare("SELECT name, bytes FROM entries ORDER BY used")
                let delete = try database.prepare("DELETE FROM entries WHERE name = ?")
                var gone: [String] = []
                while bytes > maximumBytes, try oldest.step() {
                    let name = oldest.text(0)
                    guard !keeping.contains(name) else { continue }
                    let size = Int(oldest.integer(1) ?? 0)
                    let status = unlink(store.file(named: name).path)
                    guard status == 0 || errno == ENOENT else { continue }
                    gone.append(name)
                    bytes -= size
                    if status == 0 {
                        removed.entries += 1
                        removed.bytes += size
                    }
                }
                for name in gone {
                    try delete.bind([.text(name)])
                    try delete.step()
                }
            }
        } catch {
            // The files already removed are gone either way; the next reconcile drops their records.
        }
        return removed
    }

    /// Makes the records match the disk: files without a record are added (last used: their
    /// modification time), records without a file dropped, sizes corrected. Runs on `queue`.
    func reconcile(with entries: [DiskStore.Entry]) {
        writeBatch()
        guard let database = try? opened() else { return }
        try? database.transaction {
            var recorded: [String: Int] = [:]
            let all = try database.prepare("SELECT name, bytes FROM entries")
            while try all.step() { recorded[all.text(0)] = Int(all.integer(1) ?? 0) }
            let upsert = try database.prepare(
                """
                INSERT INTO entries(name, bytes, used) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET bytes = excluded.bytes
                """)
            for entry in entries {
                let name = entry.url.lastPathComponent
                // Evicted by another process since the listing: no record comes back for it.
                if recorded.removeValue(forKey: name) != entry.bytes, access(entry.url.path, F_OK) == 0 {
                    try upsert.bind([
                        .text(name), .integer(Int64(entry.bytes)),
                        .real(entry.lastUsed.timeIntervalSince1970),
                    ])
                    try upsert.step()
                }
            }
            // A record the listing lacks may be an entry stored since the folder was listed: only
            // those whose file is really gone go.
            let delete = try database.prepare("DELETE FROM entries WHERE name = ?")
            for name in recorded.keys where access(store.path(named: name), F_OK) != 0 {
                try delete.bind([.text(name)])
                try delete.step()
            }
        }
    }

    /// Forgets every entry (after `cache clear`). Runs on `queue`.
    func removeAllEntries() {
        writeBatch()
        try? opened().execute("DELETE FROM entries")
    }

    /// The database, opened (and made) on first use. A file that is not a journal (SQLite says it
    /// is not a database, or corrupt) is replaced by a new one, rebuilt from the disk; any other
    /// failure (busy, full, read-only) is thrown, the file left as it is. Runs on `queue`.
    private func opened() throws(SQLiteError) -> SQLiteDatabase {
        if let database = database.withLock({ $0 }) { return database }
        try? FileManager.default.createDirectory(atPath: store.root.path, withIntermediateDirectories: true)
        let database: SQLiteDatabase
        do {
            database = try Self.open(file)
        } catch  where error.isNotADatabase {
            for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
            database = try Self.open(file)
        }
        self.database.withLock { $0 = database }
        let isNew = (try? database.prepare("SELECT value FROM meta WHERE key = 'reconciled'").step()) != true
        if isNew || SessionMarker.removeAbandoned(in: sessions) > 0 {
            reconcile(with: store.entries())
            try? database.execute("INSERT OR REPLACE INTO meta VALUES ('reconciled', strftime('%s', 'now'))")
        }
        return database
    }

    /// Opens the journal, making its tables once (`user_version` 1): an open of a made journal
    /// takes no write lock.
    private static func open(_ file: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: file)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        let version = try database.prepare("PRAGMA user_version")
        guard try version.step(), version.integer(0) == 0 else { return database }
        try database.execute(
            """
            BEGIN IMMEDIATE;
            CREATE TABLE IF NOT EXISTS entries (name TEXT PRIMARY KEY, bytes INTEGER NOT NULL, used REAL NOT NULL) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS entries_by_use ON entries (used);
            CREATE TABLE IF NOT EXISTS totals (entries INTEGER NOT NULL, bytes INTEGER NOT NULL, hits INTEGER NOT NULL,
                misses INTEGER NOT NULL, downloads INTEGER NOT NULL, failures INTEGER NOT NULL);
            INSERT INTO totals SELECT 0, 0, 0, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM totals);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TRIGGER IF NOT EXISTS entry_added AFTER INSERT ON entries
                BEGIN UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes; END;
            CREATE TRIGGER IF NOT EXISTS entry_removed AFTER DELETE ON entries
                BEGIN UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes; END;
            CREATE TRIGGER IF NOT EXISTS entry_resized AFTER UPDATE OF bytes ON entries
                BEGIN UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes; END;
            PRAGMA user_version = 1;
            COMMIT;
            """)
        return database
    }
}

/// A file under `flock` that says whether its process has stores not yet in the journal ("1") or
/// not ("0"): when its process dies, the lock goes with it, and the next process knows whether to
/// reconcile. A process keeps one for its life and rewrites its byte.
final class SessionMarker: Sendable {
    private let path: String
    private let descriptor: Int32
    private let removed = Atomic<Bool>(false)

    init?(folder: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = "\(folder)/\(getpid())-\(UUID().uuidString)"
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        // A marker it cannot make or lock is no marker (deinit then closes what was opened).
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            unlink(path)
            return nil
        }
    }

    /// Says whether stores are pending. A failed write leaves the byte as it was, or the file empty,
    /// which reads as pending: the next process reconciles once more than it needed to, never less.
    func say(pending: Bool) {
        var byte = pending ? UInt8(ascii: "1") : UInt8(ascii: "0")
        _ = pwrite(descriptor, &byte, 1, 0)
    }

    /// Removes the marker: nothing it stood for is pending.
    func remove() {
        guard !removed.exchange(true, ordering: .relaxed) else { return }
        unlink(path)
        close(descriptor)
    }

    /// A marker released without `remove()` stays on disk, unlocked, saying what it said last.
    deinit {
        if !removed.load(ordering: .relaxed) && descriptor >= 0 { close(descriptor) }
    }

    /// Removes the markers of processes that died; returns how many said stores were pending (an empty
    /// or unreadable one counts: its process may have died before it could write).
    static func removeAbandoned(in folder: String) -> Int {
        var pending = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = "\(folder)/\(name)"
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            // A live process holds its marker's lock; getting it means the owner is gone.
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                var byte: UInt8 = 0
                if pread(descriptor, &byte, 1, 0) != 1 || byte != UInt8(ascii: "0") { pending += 1 }
                unlink(path)
            }
            close(descriptor)
        }
        return pending
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

extension CacheJournal {
    /// What became of a batch.
    enum WriteOutcome {
        case written
        /// SQLite was busy (another process writing) past its timeout: the batch waits for a retry.
        case busy
        /// SQLite failed otherwise (a full disk, a read-only folder): the batch is dropped, and its
        /// marker stays behind so that the next process reconciles.
        case failed
    }

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
    /// loses nothing, and the marker says so (one byte rewritten, not a file made and removed per batch:
    /// on a file system without a journal, ext4 skips each recently removed inode when it makes a file,
    /// so a long run's stores would slow down).
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

    func recordedBytes(in database: SQLiteDatabase) -> Int {
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
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What `cache stats` reports.
public struct CacheStatistics: Sendable, Codable, Equatable {
    /// Images on disk.
    public var entries: Int
    /// Their total size.
    public var bytes: Int
    /// The LRU limit.
    public var limitBytes: Int
    /// Requests answered from disk, over all runs.
    public var hits: Int
    /// Requests that needed a download, over all runs.
    public var misses: Int
}

/// What `cache verify` found.
public struct VerificationReport: Sendable, Codable, Equatable {
    /// Entries that decoded, and stay.
    public var entries: Int
    /// Bytes of the entries kept.
    public var bytes: Int
    /// Entries that failed to decode, now removed.
    public var corrupt: Int
    /// Temporary files left by killed processes, now removed.
    public var abandonedTemporaryFiles: Int
}

extension ThumbnailCache {
    /// Entries, size, limit, and the hits and misses of every run so far (this one included), as
    /// the journal records them: no scan of the folder.
    public func statistics() -> CacheStatistics {
        let totals = journal.totals()
        return CacheStatistics(
            entries: totals.entries, bytes: totals.bytes, limitBytes: configuration.limitBytes,
            hits: totals.counters.hits, misses: totals.counters.misses)
    }

    /// Decodes every entry; removes the ones that fail, and temporary files left by killed
    /// processes; then makes the journal match the disk.
    public func verify() -> VerificationReport {
        var report = VerificationReport(
            entries: 0, bytes: 0, corrupt: 0,
            abandonedTemporaryFiles: store.removeAbandonedTemporaryFiles())
        var kept: [DiskStore.Entry] = []
        for entry in store.entries() {
            let decodes =
                FileManager.default.contents(atPath: entry.url.path)
                .map { (try? ImageDecoder.check($0)) != nil } ?? false
            if decodes {
                report.entries += 1
                report.bytes += entry.bytes
                kept.append(entry)
            } else if unlink(entry.url.path) == 0 {
                report.corrupt += 1
            }
        }
        journal.queue.sync { journal.reconcile(with: kept) }
        return report
    }

    /// Removes least-recently-used entries until at most `maximumBytes` remain (with `dryRun`, counts
    /// those it would remove and removes none).
    @discardableResult
    public func prune(downTo maximumBytes: Int, dryRun: Bool = false) -> (entries: Int, bytes: Int) {
        journal.queue.sync {
            journal.writeBatch()
            return journal.evict(downTo: maximumBytes, dryRun: dryRun)
        }
    }

    /// Removes every entry; returns how many there were.
    @discardableResult
    public func clear() -> Int {
        journal.queue.sync {
            let count = store.removeAll()
            journal.removeAllEntries()
            return count
        }
    }
}

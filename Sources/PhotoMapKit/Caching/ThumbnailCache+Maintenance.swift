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
    /// Entries, size, limit, and the hits and misses of every run so far (this one included).
    public func statistics() -> CacheStatistics {
        let entries = store.entries()
        let totals = withStatisticsFile { $0 }.adding(stateQueue.sync { counters })
        return CacheStatistics(entries: entries.count, bytes: entries.reduce(0) { $0 + $1.bytes },
                               limitBytes: configuration.limitBytes, hits: totals.hits, misses: totals.misses)
    }

    /// Adds this run's hits and misses to the folder's totals (under a lock shared with other processes).
    public func saveStatistics() {
        let delta = stateQueue.sync {
            defer { counters = Counters() }
            return counters
        }
        guard delta.hits + delta.misses > 0 else { return }
        _ = withStatisticsFile { $0.adding(delta) }
    }

    /// Decodes every entry; removes the ones that fail, and temporary files left by killed processes.
    public func verify() -> VerificationReport {
        var report = VerificationReport(entries: 0, bytes: 0, corrupt: 0, abandonedTemporaryFiles: store.removeAbandonedTemporaryFiles())
        for entry in store.entries() {
            let decodes = FileManager.default.contents(atPath: entry.url.path).map { (try? ImageDecoder.decode($0)) != nil } ?? false
            if decodes {
                report.entries += 1
                report.bytes += entry.bytes
            } else if unlink(entry.url.path) == 0 {
                report.corrupt += 1
            }
        }
        return report
    }

    /// Removes least-recently-used entries until at most `maximumBytes` remain.
    @discardableResult
    public func prune(downTo maximumBytes: Int) -> (entries: Int, bytes: Int) {
        stateQueue.sync { estimatedBytes = nil }
        return store.evict(downTo: maximumBytes)
    }

    /// Removes every entry; returns how many there were.
    @discardableResult
    public func clear() -> Int {
        stateQueue.sync { estimatedBytes = nil }
        return store.removeAll()
    }

    /// Reads the folder's totals, lets `update` change them, writes them back: all under one lock.
    private func withStatisticsFile(_ update: (Counters) -> Counters) -> Counters {
        let file = store.root.appendingPathComponent(".statistics.json")
        guard (try? store.createFolder(of: file)) != nil,
              let lock = try? FileLock(path: store.root.appendingPathComponent(".statistics.lock").path)
        else { return update(Counters()) }
        return withExtendedLifetime(lock) {
            let current = (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(Counters.self, from: $0) } ?? Counters()
            let updated = update(current)
            if updated != current, let data = try? JSONEncoder().encode(updated) {
                try? data.write(to: file, options: .atomic)
            }
            return updated
        }
    }
}

extension Counters {
    func adding(_ other: Counters) -> Counters {
        Counters(hits: hits + other.hits, misses: misses + other.misses, downloads: downloads + other.downloads,
                 failures: failures + other.failures)
    }
}

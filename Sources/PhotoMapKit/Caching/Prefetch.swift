import Foundation

/// How far a prefetch has got.
public struct PrefetchProgress: Sendable {
    /// Squares asked for.
    public let total: Int
    /// Squares answered so far (stored, already cached or failed).
    public let done: Int
    /// Of those, the ones that failed.
    public let failed: Int
}

/// What a prefetch did.
public struct PrefetchReport: Sendable {
    /// Squares asked for.
    public let total: Int
    /// Squares now on disk.
    public let succeeded: Int
    /// Photo id and error of each square that could not be had.
    public let failures: [(photoID: String, error: ThumbnailError)]
}

/// Counts a prefetch's answers as they arrive from any thread.
final class PrefetchTally: Sendable {
    private struct Counts {
        var done = 0
        var failures: [(photoID: String, error: ThumbnailError)] = []
        var lastReport = Date.distantPast
    }

    private let total: Int
    private let counts = Locked(Counts())
    /// Progress is reported at most this often (and always at the end).
    static let reportInterval: TimeInterval = 0.05

    init(total: Int) {
        self.total = total
    }

    /// Records one answer; returns the progress, whether it was the last, and whether progress is due.
    func record(_ result: Result<String, ThumbnailError>,
                photoID: String) -> (PrefetchProgress, finished: Bool, due: Bool) {
        counts.withLock { counts in
            counts.done += 1
            if case let .failure(error) = result { counts.failures.append((photoID, error)) }
            let now = Date()
            let due = counts.done == total || now.timeIntervalSince(counts.lastReport) >= Self.reportInterval
            if due { counts.lastReport = now }
            return (PrefetchProgress(total: total, done: counts.done, failed: counts.failures.count),
                    counts.done == total, due)
        }
    }

    var report: PrefetchReport {
        counts.withLock { PrefetchReport(total: total, succeeded: $0.done - $0.failures.count, failures: $0.failures) }
    }
}

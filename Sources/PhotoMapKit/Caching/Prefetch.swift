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
final class PrefetchTally: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    // Guarded by `lock`.
    private var done = 0
    private var failures: [(photoID: String, error: ThumbnailError)] = []
    private var lastReport = Date.distantPast
    /// Progress is reported at most this often (and always at the end).
    static let reportInterval: TimeInterval = 0.05

    init(total: Int) {
        self.total = total
    }

    /// Records one answer; returns the progress, whether it was the last, and whether progress is due.
    func record(_ result: Result<URL, ThumbnailError>, photoID: String) -> (PrefetchProgress, finished: Bool, due: Bool) {
        lock.withLock {
            done += 1
            if case let .failure(error) = result { failures.append((photoID, error)) }
            let now = Date()
            let due = done == total || now.timeIntervalSince(lastReport) >= Self.reportInterval
            if due { lastReport = now }
            return (PrefetchProgress(total: total, done: done, failed: failures.count), done == total, due)
        }
    }

    var report: PrefetchReport {
        lock.withLock { PrefetchReport(total: total, succeeded: done - failures.count, failures: failures) }
    }
}

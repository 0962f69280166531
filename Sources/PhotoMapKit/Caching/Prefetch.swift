import Dispatch
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

/// A prefetch fed as a listing arrives: `add` the photos of each page, then `finish`. The report comes
/// once every photo added is answered and no more will come.
public final class PrefetchRun: Sendable {
    private let cache: ThumbnailCache
    private let size: PhotoSize
    private let tally: PrefetchTally

    init(
        cache: ThumbnailCache, size: PhotoSize, queue: DispatchQueue,
        progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable (PrefetchReport) -> Void
    ) {
        self.cache = cache
        self.size = size
        tally = PrefetchTally(queue: queue, progress: progress, completion: completion)
    }

    /// Asks for these photos' images too.
    public func add(_ photos: some Collection<Photo>) {
        guard !photos.isEmpty else { return }
        tally.expect(photos.count)
        cache.prefetch(Array(photos), size: size, tally: tally)
    }

    /// No more photos: the report comes when those added are answered (at once if none were).
    public func finish() {
        tally.close()
    }
}

/// Counts a prefetch's answers as they arrive from any thread, and tells its progress and its end
/// on the run's queue.
final class PrefetchTally: Sendable {
    private struct Counts {
        var total = 0
        var done = 0
        /// No more photos will be added.
        var closed = false
        var failures: [(photoID: String, error: ThumbnailError)] = []
        var lastReport = Date.distantPast
    }

    private let counts = Locked(Counts())
    private let queue: DispatchQueue
    private let progress: @Sendable (PrefetchProgress) -> Void
    private let completion: @Sendable (PrefetchReport) -> Void
    /// Progress is reported at most this often (and always at the end).
    static let reportInterval: TimeInterval = 0.05

    init(
        queue: DispatchQueue, progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable (PrefetchReport) -> Void
    ) {
        self.queue = queue
        self.progress = progress
        self.completion = completion
    }

    /// Counts `count` more photos to answer (before any of them is asked for).
    func expect(_ count: Int) {
        counts.withLock { $0.total += count }
    }

    /// No more photos come; ends the run if every one is answered.
    func close() {
        let report = counts.withLock { counts -> PrefetchReport? in
            counts.closed = true
            return counts.done == counts.total ? Self.report(counts) : nil
        }
        if let report { queue.async { [completion] in completion(report) } }
    }

    /// Records one answer, telling progress when due (at most every `reportInterval`) and the report after
    /// the last answer of a closed run.
    func record(_ result: Result<String, ThumbnailError>, photoID: String) {
        let (snapshot, report) = counts.withLock { counts -> (PrefetchProgress?, PrefetchReport?) in
            counts.done += 1
            if case let .failure(error) = result { counts.failures.append((photoID, error)) }
            let finished = counts.closed && counts.done == counts.total
            let now = Date()
            guard finished || now.timeIntervalSince(counts.lastReport) >= Self.reportInterval else { return (nil, nil) }
            counts.lastReport = now
            return (
                PrefetchProgress(total: counts.total, done: counts.done, failed: counts.failures.count),
                finished ? Self.report(counts) : nil
            )
        }
        if let snapshot { queue.async { [progress] in progress(snapshot) } }
        if let report { queue.async { [completion] in completion(report) } }
    }

    private static func report(_ counts: Counts) -> PrefetchReport {
        PrefetchReport(total: counts.total, succeeded: counts.done - counts.failures.count, failures: counts.failures)
    }
}

import Dispatch
import PhotoMapKit

/// Fetches the squares of a listing now, with a progress bar on a terminal and a summary on stderr.
enum Prefetcher {
    /// Failures listed one by one before the rest are only counted.
    static let reportedFailures = 5

    static func run(_ photos: [Photo], cache: ThumbnailCache, console: Console) throws {
        let bar = ProgressBar(console: console, label: "prefetching squares")
        let finished = DispatchSemaphore(value: 0)
        let outcome = ReportBox()
        cache.prefetch(photos, queue: DispatchQueue(label: "photomap.prefetch.progress"), progress: { progress in
            bar.update(done: progress.done, total: progress.total)
        }, completion: { report in
            outcome.report = report
            finished.signal()
        })
        finished.wait()
        bar.finish()
        cache.saveStatistics()
        guard let report = outcome.report else { return }
        for failure in report.failures.prefix(reportedFailures) {
            console.warn("no square for photo \(failure.photoID): \(failure.error)")
        }
        if report.failures.count > reportedFailures {
            console.warn("\(report.failures.count - reportedFailures) more squares failed")
        }
        // A full disk stops the run: every later write would fail the same way.
        if let full = report.failures.first(where: { if case .diskFull = $0.error { true } else { false } }) {
            throw full.error
        }
        console.err("photomap: \(report.succeeded) of \(report.total) squares ready in \(cache.directory.path)\n")
    }
}

/// Carries the report from the completion's queue to the waiting thread (the semaphore orders the accesses).
private final class ReportBox: @unchecked Sendable {
    var report: PrefetchReport?
}

import Dispatch
import PhotoMapKit

/// Fetches the squares of a listing now, with a progress bar on a terminal and a summary on stderr.
enum Prefetcher {
    /// Failures listed one by one before the rest are only counted.
    static let reportedFailures = 5

    /// Fetches the squares; throws only for a full disk. Returns the report.
    @discardableResult
    static func run(_ photos: [Photo], size: PhotoSize = .square, label: String = "squares", cache: ThumbnailCache,
                    console: Console) throws -> PrefetchReport? {
        let bar = ProgressBar(console: console, label: "fetching \(label)")
        let finished = DispatchGroup()
        let outcome = Locked<PrefetchReport?>(nil)
        finished.enter()
        cache.prefetch(photos, size: size, queue: DispatchQueue(label: "photomap.prefetch.progress"),
                       progress: { progress in
            bar.update(done: progress.done, total: progress.total)
        }, completion: { report in
            outcome.withLock { $0 = report }
            finished.leave()
        })
        finished.wait()
        bar.finish()
        cache.flush()
        guard let report = outcome.withLock({ $0 }) else { return nil }
        for failure in report.failures.prefix(reportedFailures) {
            console.warn("no \(label == "squares" ? "square" : "image") for photo \(failure.photoID): \(failure.error)")
        }
        if report.failures.count > reportedFailures {
            console.warn("\(report.failures.count - reportedFailures) more \(label) failed")
        }
        // A full disk stops the run: every later write would fail the same way.
        if let full = report.failures.first(where: { if case .diskFull = $0.error { true } else { false } }) {
            throw full.error
        }
        console.err("photomap: \(report.succeeded) of \(report.total) \(label) ready in \(cache.directory.path)\n")
        return report
    }

    /// A prefetch that got nothing at all is a failure (exit 1), after the listing is printed.
    static func check(_ report: PrefetchReport?) throws {
        guard let report, report.total > 0, report.succeeded == 0 else { return }
        throw CommandFailure("none of the \(report.total) images could be fetched (see the warnings above)")
    }
}

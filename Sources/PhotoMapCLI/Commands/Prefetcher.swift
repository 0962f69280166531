// SPDX-License-Identifier: Apache-2.0
import Dispatch
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// The command line's side of a prefetch (`PrefetchRun`): a progress bar on a terminal, then each size's
/// failures as warnings and its summary on stderr. Photos are added as they are listed (so fetching
/// overlaps the listing), then `wait` gives the reports. The bar is drawn while photomap waits for the
/// images, so that it never shares the line with another.
struct Prefetcher {
    /// Failures listed one by one before the rest are only counted.
    static let reportedFailures = 5

    private let cache: ThumbnailCache
    private let console: Console
    private let bar: ProgressBar
    private let run: PrefetchRun
    private let finished = DispatchGroup()
    private let outcome = Locked<[PrefetchReport]?>(nil)
    /// The latest progress, and whether `wait` is drawing it.
    private let shown = Locked((progress: PrefetchProgress?.none, drawing: false))

    /// Starts a prefetch of each photo's images of `sizes`.
    init(sizes: [PhotoSize] = [.square], cache: ThumbnailCache, console: Console) {
        let bar = ProgressBar(
            console: console, label: "fetching " + sizes.map { Self.noun(for: $0).plural }.joined(separator: " and "))
        let (finished, outcome, shown) = (self.finished, self.outcome, self.shown)
        finished.enter()
        self.cache = cache
        self.console = console
        self.bar = bar
        let progress: @Sendable (PrefetchProgress) -> Void = { progress in
            let drawing = shown.withLock { shown in
                shown.progress = progress
                return shown.drawing
            }
            if drawing { bar.update(done: progress.done, total: progress.total) }
        }
        run = cache.startPrefetch(
            sizes: sizes, queue: DispatchQueue(label: "photomap.prefetch.progress"),
            progress: progress
        ) { reports in
            outcome.withLock { $0 = reports }
            finished.leave()
        }
    }

    /// A prefetch of squares and medium images: what pages show.
    static func pageImages(cache: ThumbnailCache, console: Console) -> Prefetcher {
        Prefetcher(sizes: [.square, .medium], cache: cache, console: console)
    }

    /// Fetches these photos' images too.
    func add(_ photos: some Collection<Photo>) {
        run.add(photos)
    }

    /// Waits for every image added; throws only for a full disk. Returns the reports, one per size.
    @discardableResult
    func wait() throws -> [PrefetchReport] {
        run.finish()
        if let progress = shown.withLock({ shown in
            shown.drawing = true
            return shown.progress
        }) {
            bar.update(done: progress.done, total: progress.total)
        }
        finished.wait()
        shown.withLock { $0.drawing = false }
        bar.finish()
        cache.flush()
        let reports = outcome.withLock { $0 } ?? []
        for report in reports {
            let noun = Self.noun(for: report.size)
            let failures = report.failures.filter { !Self.isOffline($0.error) }
            for failure in failures.prefix(Self.reportedFailures) {
                console.warn("no \(noun.singular) for photo \(failure.photoID): \(failure.error)")
            }
            if failures.count > Self.reportedFailures {
                console.warn("\(failures.count - Self.reportedFailures) more \(noun.plural) failed")
            }
            // Offline, a miss is not a failure: counted once rather than told photo by photo.
            let skipped = report.failures.count - failures.count
            if skipped > 0 {
                console.warn(
                    "skipped \(skipped) \(skipped == 1 ? noun.singular : noun.plural) not in the cache: "
                        + "--offline makes no request")
            }
            // A full disk stops the run: every later write would fail the same way.
            if let full = report.failures.first(where: { if case .diskFull = $0.error { true } else { false } }) {
                throw full.error
            }
            // Nothing asked for (an empty listing, or one that failed on its first page) is nothing to tell.
            if report.total > 0 {
                console.note("\(report.succeeded) of \(report.total) \(noun.plural) ready in \(cache.directory.path)")
            }
        }
        return reports
    }

    /// What messages call an image of `size`.
    private static func noun(for size: PhotoSize) -> (singular: String, plural: String) {
        size == .medium ? ("image", "images") : ("square", "squares")
    }

    /// Whether `error` is a miss `--offline` did not fetch.
    private static func isOffline(_ error: ThumbnailError) -> Bool {
        if case .offline = error { true } else { false }
    }

    /// A prefetch that got nothing at all is a failure (exit 1), after the listing is printed; not when
    /// every image missing was one `--offline` skipped.
    static func check(_ report: PrefetchReport?) throws {
        guard let report, report.total > 0, report.succeeded == 0,
            report.failures.contains(where: { !isOffline($0.error) })
        else { return }
        throw CommandFailure("none of the \(report.total) images could be fetched (see the warnings above)")
    }
}

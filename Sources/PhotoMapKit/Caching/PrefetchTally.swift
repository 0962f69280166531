// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Counts a prefetch's answers as they arrive from any thread, and tells its progress and its end
/// on the run's queue.
final class PrefetchTally: Sendable {
    private struct Counts {
        /// Photos added: each is asked for once per size.
        var photos = 0
        /// Answers so far, of every size.
        var done = 0
        /// No more photos will be added.
        var closed = false
        /// The failures of each size, in the order of `sizes`.
        var failures: [[(photoID: String, error: ThumbnailError)]]
        var failed = 0
        var lastReport = Date.distantPast
    }

    private let sizes: [PhotoSize]
    private let counts: Locked<Counts>
    private let queue: DispatchQueue
    private let progress: @Sendable (PrefetchProgress) -> Void
    private let completion: @Sendable ([PrefetchReport]) -> Void
    /// Progress is reported at most this often (and always at the end).
    static let reportInterval: TimeInterval = 0.05

    init(
        sizes: [PhotoSize], queue: DispatchQueue, progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable ([PrefetchReport]) -> Void
    ) {
        self.sizes = sizes
        counts = Locked(Counts(failures: Array(repeating: [], count: sizes.count)))
        self.queue = queue
        self.progress = progress
        self.completion = completion
    }

    /// Counts `count` more photos to answer (before any of them is asked for).
    func expect(_ count: Int) {
        counts.withLock { $0.photos += count }
    }

    /// No more photos come; ends the run if every one is answered.
    func close() {
        let reports = counts.withLock { counts -> [PrefetchReport]? in
            counts.closed = true
            return counts.done == counts.photos * sizes.count ? self.reports(counts) : nil
        }
        if let reports { queue.async { [completion] in completion(reports) } }
    }

    /// Records one answer for the image of `sizes[sizeIndex]`, telling progress when due (at most every
    /// `reportInterval`) and the reports after the last answer of a closed run.
    func record(_ result: Result<String, ThumbnailError>, photoID: String, sizeIndex: Int) {
        // Queued while the lock is held, so the progress arrives in the order it was counted: queued after
        // the lock, an earlier count could land after the last one (17 after 20 was seen).
        counts.withLock { counts in
            counts.done += 1
            if case let .failure(error) = result {
                counts.failures[sizeIndex].append((photoID, error))
                counts.failed += 1
            }
            let total = counts.photos * sizes.count
            let finished = counts.closed && counts.done == total
            let now = Date()
            guard finished || now.timeIntervalSince(counts.lastReport) >= Self.reportInterval else { return }
            counts.lastReport = now
            let snapshot = PrefetchProgress(total: total, done: counts.done, failed: counts.failed)
            queue.async { [progress] in progress(snapshot) }
            if finished {
                let reports = self.reports(counts)
                queue.async { [completion] in completion(reports) }
            }
        }
    }

    /// One report per size, once every photo is answered.
    private func reports(_ counts: Counts) -> [PrefetchReport] {
        zip(sizes, counts.failures).map { size, failures in
            PrefetchReport(
                size: size, total: counts.photos, succeeded: counts.photos - failures.count, failures: failures)
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import PhotoMapModel

/// A prefetch fed as a listing arrives: `add` the photos of each page, then `finish`. Each photo's image
/// of every size asked for is fetched; progress counts them all, and the reports (one per size, in the
/// order asked) come once every photo added is answered and no more will come.
public final class PrefetchRun: Sendable {
    /// The sizes fetched of each photo, in the order of their reports.
    public let sizes: [PhotoSize]
    private let cache: ThumbnailCache
    private let tally: PrefetchTally

    init(
        cache: ThumbnailCache, sizes: [PhotoSize], queue: DispatchQueue,
        progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable ([PrefetchReport]) -> Void
    ) {
        self.cache = cache
        self.sizes = sizes
        tally = PrefetchTally(sizes: sizes, queue: queue, progress: progress, completion: completion)
    }

    /// Asks for these photos' images too.
    public func add(_ photos: some Collection<Photo>) {
        guard !photos.isEmpty else { return }
        tally.expect(photos.count)
        cache.prefetch(Array(photos), sizes: sizes, tally: tally)
    }

    /// No more photos: the reports come when those added are answered (at once if none were).
    public func finish() {
        tally.close()
    }
}

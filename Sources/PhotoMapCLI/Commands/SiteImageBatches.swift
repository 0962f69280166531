// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit
import PhotoMapModel

/// The images a site lacks, fetched while places are still being listed: each place's photos that lack
/// images join the batch being fetched (squares and medium images at once) as soon as they are listed. A
/// full batch is waited for and placed in the site before the next starts, so that a cache smaller than the
/// site's images never evicts one before it is placed, and the photos still to place are never all held
/// at once beside the listing.
final class SiteImageBatches {
    private let builder: SiteBuilder
    private let cache: ThumbnailCache
    private let console: Console
    private let batch: Int
    /// The batch being fetched, and its prefetch.
    private var fetching: (photos: [Photo], prefetcher: Prefetcher)?

    /// Batches of at most `batch` photos, fetched into `cache` and placed by `builder`.
    init(builder: SiteBuilder, cache: ThumbnailCache, console: Console, batch: Int) {
        self.builder = builder
        self.cache = cache
        self.console = console
        self.batch = max(batch, 1)
    }

    /// Starts fetching the images the site lacks of these photos, looked at a batch at a time and never
    /// copied out of their entries whole (a large listing would be held twice at the peak).
    func add(_ photos: [AnnotatedPhoto]) throws {
        for start in stride(from: 0, to: photos.count, by: batch) {
            var missing = builder.photosWithoutImages(
                photos[start..<min(start + batch, photos.count)].lazy
                    .map(\.record))[...]
            while !missing.isEmpty {
                // Taken out of `fetching` while it grows, so the batch's array is not copied for each place.
                var (batchPhotos, prefetcher) =
                    fetching.take() ?? ([], .pageImages(cache: cache, console: console))
                let joining = missing.prefix(batch - batchPhotos.count)
                missing = missing.dropFirst(joining.count)
                prefetcher.add(joining)
                batchPhotos += joining
                fetching = (batchPhotos, prefetcher)
                if batchPhotos.count >= batch { try placeFetched() }
            }
        }
    }

    /// Waits for the batch being fetched, then places its images: every image the site lacked is then
    /// placed (or warned about).
    func placeFetched() throws {
        guard let (photos, prefetcher) = fetching else { return }
        fetching = nil
        try prefetcher.wait()
        try builder.placeImages(of: photos)
    }
}

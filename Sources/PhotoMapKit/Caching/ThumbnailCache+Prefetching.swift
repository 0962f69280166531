// SPDX-License-Identifier: Apache-2.0
import Dispatch
import PhotoMapModel

extension ThumbnailCache {
    /// A prefetch of each photo's images of `sizes` (by default its square), photos added as they are
    /// listed: progress on `queue` (at most every 50 ms, and at the end), then a report per size. Hits are
    /// not fully decoded: a prefetch only makes sure the files are there.
    public func startPrefetch(
        sizes: [PhotoSize] = [.square], queue: DispatchQueue,
        progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable ([PrefetchReport]) -> Void
    ) -> PrefetchRun {
        PrefetchRun(cache: self, sizes: sizes, queue: queue, progress: progress, completion: completion)
    }

    /// Asks for the photos' images of each size for a prefetch, answers counted by `tally`.
    func prefetch(_ photos: [Photo], sizes: [PhotoSize], tally: PrefetchTally) {
        // A hit is a few system calls, most of a warm prefetch's time: the photos are looked up in
        // slices on the pool, a job a size and slice, so every core checks entries (misses queue their
        // downloads as ever).
        for (sizeIndex, size) in sizes.enumerated() {
            for start in stride(from: 0, to: photos.count, by: Self.prefetchSlice) {
                let part = photos[start..<min(start + Self.prefetchSlice, photos.count)]
                pool.submit { [self] in
                    for photo in part {
                        let waiter = Waiter(queue: nil, verifiesHits: false) {
                            tally.record($0.map(\.path), photoID: photo.id, sizeIndex: sizeIndex)
                        }
                        guard
                            let source = ThumbnailSource.resolve(
                                photo, size: size, imageHost: configuration.imageHost)
                        else {
                            deliver(.failure(.noImage(photoID: photo.id)), to: waiter)
                            continue
                        }
                        request(source, id: ThumbnailRequest.nextID(), waiter: waiter)
                    }
                }
            }
        }
    }

    /// Photos a prefetch looks up in one job on the pool.
    static let prefetchSlice = 128
}

import Dispatch

extension ThumbnailCache {
    /// Fetches the images of many photos, reporting progress on `queue` (at most every 50 ms, and
    /// at the end), then the report. Hits are not fully decoded: a prefetch only makes sure the
    /// files are there.
    public func prefetch(
        _ photos: [Photo], size: PhotoSize = .square, queue: DispatchQueue,
        progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable (PrefetchReport) -> Void
    ) {
        let run = startPrefetch(size: size, queue: queue, progress: progress, completion: completion)
        run.add(photos)
        run.finish()
    }

    /// A prefetch that photos are added to as they are listed (see `prefetch`).
    public func startPrefetch(
        size: PhotoSize = .square, queue: DispatchQueue,
        progress: @escaping @Sendable (PrefetchProgress) -> Void,
        completion: @escaping @Sendable (PrefetchReport) -> Void
    ) -> PrefetchRun {
        PrefetchRun(cache: self, size: size, queue: queue, progress: progress, completion: completion)
    }

    /// Asks for the photos' images for a prefetch, answers counted by `tally`.
    func prefetch(_ photos: [Photo], size: PhotoSize, tally: PrefetchTally) {
        // A hit is a few system calls, most of a warm prefetch's time: the photos are looked up in
        // slices on the pool, so every core checks entries (misses queue their downloads as ever).
        for start in stride(from: 0, to: photos.count, by: Self.prefetchSlice) {
            let part = photos[start..<min(start + Self.prefetchSlice, photos.count)]
            pool.submit { [self] in
                for photo in part {
                    let waiter = Waiter(queue: nil, verifiesHits: false) {
                        tally.record($0.map(\.path), photoID: photo.id)
                    }
                    guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost)
                    else {
                        deliver(.failure(.noImage(photoID: photo.id)), to: waiter)
                        continue
                    }
                    request(source, id: ThumbnailRequest.nextID(), waiter: waiter)
                }
            }
        }
    }

    /// Photos a prefetch looks up in one job on the pool.
    static let prefetchSlice = 128
}

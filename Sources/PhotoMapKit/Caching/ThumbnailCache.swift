import Dispatch
import Foundation
import Synchronization

/// Square thumbnails fetched on demand and kept on disk, shared by every command and the server.
///
/// A request is a hit (the file is whole on disk), joins a download in flight for the same image
/// (cancelling one requester leaves the others be), or starts one. Downloads run on the origin's
/// event loop (one curl multi handle, HTTP/2 multiplexed); checking, decoding and storing (and a
/// prefetch's lookups) run on a pool sized to the cores; the bookkeeping (sizes, last uses, eviction)
/// on the journal's queue.
/// One mutex guards the in-flight table and the queue of downloads waiting for a slot. Across
/// processes, an entry's lock (`EntryLocks`) makes each image be fetched once.
public final class ThumbnailCache: Sendable {
    /// How the cache behaves.
    public struct Configuration: Sendable {
        /// The LRU limit; past it, least-recently-used entries go until ~70% remain.
        public var limitBytes: Int
        /// Images being fetched, checked and stored at once: each holds its body in memory.
        public var maximumDownloadsInProgress: Int
        /// Builds square URLs for records without `url_*` extras.
        public var imageHost: ImageHost
        /// Where the cache tells what it could not do without failing a request (its journal).
        public var warn: @Sendable (String) -> Void

        /// 512 MB and up to 128 images in progress by default.
        public init(
            limitBytes: Int = 512 << 20, maximumDownloadsInProgress: Int = 128, imageHost: ImageHost = .flickr,
            warn: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.limitBytes = limitBytes
            self.maximumDownloadsInProgress = max(maximumDownloadsInProgress, 1)
            self.imageHost = imageHost
            self.warn = warn
        }
    }

    /// The folder holding the entries (`{cache}/thumbs`).
    public var directory: URL { store.root }
    /// The configuration in force.
    public let configuration: Configuration

    let store: DiskStore
    let journal: CacheJournal
    private let origin: any ImageOrigin
    private let pool = WorkPool()
    private let state = Locked(State())

    /// Downloads in flight by key, those waiting for a slot, requesters whose hit is being verified
    /// (by request id, so a cancel finds them), and the entry locks once opened.
    private struct State {
        var inFlight: [String: Download] = [:]
        var verifying: [Int: Waiter] = [:]
        /// Keys waiting for a slot, oldest first.
        var queued = FIFO<String>()
        var inProgress = 0
        var locks: EntryLocks?
    }

    /// Creates a cache in `{cacheDirectory}/thumbs` fetching from `origin`.
    public init(cacheDirectory: URL, origin: any ImageOrigin, configuration: Configuration = Configuration()) {
        store = DiskStore(root: cacheDirectory.appendingPathComponent("thumbs"))
        journal = CacheJournal(store: store, limitBytes: configuration.limitBytes, warn: configuration.warn)
        self.origin = origin
        self.configuration = configuration
    }

    /// Stores an image made on this machine (an imported photo's square or medium image) as the entry of
    /// a photo's image of `size`, checked as a fetched one is: pages, `serve`, `export` and `cache verify`
    /// use it unchanged.
    public func keep(_ bytes: Data, for photo: Photo, size: PhotoSize) throws(ThumbnailError) {
        guard let (source, name) = entry(for: photo, size: size) else { throw .noImage(photoID: photo.id) }
        let checked = try Self.checked(bytes, source: source)
        try store.write(checked, named: name)
        journal.noteStored(name, bytes: checked.count)
    }

    /// The entry locks, opened by the first download (so that reading a cache creates nothing).
    private func entryLocks() throws(ThumbnailError) -> EntryLocks {
        try state.withLock { state throws(ThumbnailError) in
            if let locks = state.locks { return locks }
            let file = store.root.appendingPathComponent(".fetching.lock")
            try store.createFolder(of: file)
            let locks = try EntryLocks(path: file.path, warn: configuration.warn)
            state.locks = locks
            return locks
        }
    }

    /// Asks for a photo's image (by default its 75×75 square); `completion` runs on `queue` with the
    /// local file, or the error.
    @discardableResult
    public func image(
        for photo: Photo, size: PhotoSize = .square, queue: DispatchQueue,
        completion: @escaping @Sendable (Result<URL, ThumbnailError>) -> Void
    ) -> ThumbnailRequest {
        let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost)
        let request = ThumbnailRequest(cache: self, key: source?.key)
        // Paths become URLs only here: a prefetch needs none.
        let waiter = Waiter(queue: queue) { completion($0.map { URL(fileURLWithPath: $0.path, isDirectory: false) }) }
        guard let source else {
            deliver(.failure(.noImage(photoID: photo.id)), to: waiter)
            return request
        }
        self.request(source, id: request.id, waiter: waiter)
        return request
    }

    /// Asks for a photo's image and waits for it; cancelling the task cancels this requester only.
    public func image(for photo: Photo, size: PhotoSize = .square) async throws(ThumbnailError) -> URL {
        let holder = Locked<ThumbnailRequest?>(nil)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let request = image(for: photo, size: size, queue: .global()) { continuation.resume(returning: $0) }
                holder.withLock { $0 = request }
                if Task.isCancelled { request.cancel() }
            }
        } onCancel: {
            holder.withLock { $0 }?.cancel()
        }
        return try result.get()
    }

    /// The cached file of a photo's image when it is on disk and whole (the cheap check); no fetch.
    /// Copying what a prefetch fetched counts no second hit.
    public func cachedFile(for photo: Photo, size: PhotoSize = .square) -> URL? {
        guard let (name, image) = lookUp(photo, size: size) else { return nil }
        noteUse(name, of: image)
        return store.file(named: name)
    }

    /// A request for a server: the entry opened for reading (to send as it is) when it is on disk and
    /// whole (the cheap check), counted as a hit; else the miss, for `fetch` to fetch without resolving,
    /// hashing or looking again.
    public func lookUpImage(for photo: Photo, size: PhotoSize = .square) -> ImageLookup {
        guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost) else {
            return .missing(ImageMiss(photoID: photo.id, source: nil, name: ""))
        }
        let name = SHA256.hex(source.key)
        guard source.isFetchable, let image = store.openWholeImage(named: name) else {
            return .missing(ImageMiss(photoID: photo.id, source: source, name: name))
        }
        noteUse(name, of: image)
        journal.noteCounters(Counters(hits: 1))
        return .cached(CachedImage(name: name, contents: .file(image.file), bytes: image.bytes, format: image.format))
    }

    /// Fetches what `lookUpImage` missed; `completion` runs on `queue` with the entry as stored (its bytes,
    /// as checked and written: nothing is opened again), or the error.
    public func fetch(
        _ miss: ImageMiss, queue: DispatchQueue,
        completion: @escaping @Sendable (Result<CachedImage, ThumbnailError>) -> Void
    ) {
        let store = store
        let waiter = Waiter(queue: queue) { result in
            completion(
                result.flatMap { delivered in
                    if let bytes = delivered.bytes, let format = ImageDecoder.format(of: bytes) {
                        return .success(
                            CachedImage(
                                name: delivered.name, contents: .bytes(bytes), bytes: bytes.count,
                                format: format))
                    }
                    // Stored by another process: the one case where the entry is opened here.
                    guard let image = store.openWholeImage(named: delivered.name) else {
                        return .failure(.writeFailed(path: delivered.path, reason: "the entry went as it was stored"))
                    }
                    return .success(
                        CachedImage(
                            name: delivered.name, contents: .file(image.file), bytes: image.bytes,
                            format: image.format))
                })
        }
        guard let source = miss.source else { return deliver(.failure(.noImage(photoID: miss.photoID)), to: waiter) }
        request(source, name: miss.name, id: ThumbnailRequest.nextID(), waiter: waiter, lookedUp: true)
    }

    /// The entry of a photo's image when it is on disk and whole, for a page (no hit counted: the
    /// request it serves was counted already).
    func openCachedImage(for photo: Photo, size: PhotoSize) -> (name: String, format: ImageDecoder.Format)? {
        guard let (name, image) = lookUp(photo, size: size) else { return nil }
        noteUse(name, of: image)
        return (name, image.format)
    }

    /// The name of the entry that holds (or would hold) a photo's image: the SHA-256 of its key, so
    /// one image keeps one name. Nil when the photo has no image of this size to fetch. No I/O.
    public func entryName(for photo: Photo, size: PhotoSize) -> String? {
        entry(for: photo, size: size)?.name
    }

    /// Where a photo's image of `size` comes from and the name of its entry; nil when it has no image to fetch.
    private func entry(for photo: Photo, size: PhotoSize) -> (source: ThumbnailSource, name: String)? {
        guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost),
            source.isFetchable
        else { return nil }
        return (source, SHA256.hex(source.key))
    }

    private func lookUp(_ photo: Photo, size: PhotoSize) -> (String, DiskStore.OpenedImage)? {
        guard let name = entryName(for: photo, size: size) else { return nil }
        return store.openWholeImage(named: name).map { (name, $0) }
    }

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

    /// Writes this run's bookkeeping (new entries, uses, hits and misses) to the journal now, and
    /// evicts if the limit is passed; otherwise that happens within `CacheJournal.flushInterval`.
    public func flush() {
        journal.writeAll()
    }

    // MARK: - Requests

    /// Answers `waiter` from disk, from a download in flight, or from a new one. `name` is the key's
    /// hash when the caller knows it; `lookedUp`: the caller has just looked on disk and missed.
    private func request(
        _ source: ThumbnailSource, name known: String? = nil, id: Int, waiter: Waiter,
        lookedUp: Bool = false
    ) {
        guard source.isFetchable else {
            return deliver(.failure(.unsupportedURL(HTTPError.redacted(source.url))), to: waiter)
        }
        let key = source.key
        let name = known ?? SHA256.hex(key)
        let path = store.path(named: name)
        // A miss looks again before fetching (`begin`), noticing a shard folder removed meanwhile.
        if !lookedUp, let image = store.openWholeImage(named: name, noticingRemoval: false) {
            noteUse(name, of: image)
            return hit(source, path: path, id: id, waiter: waiter)
        }
        let starts = state.withLock { state in
            if state.inFlight[key] != nil {
                state.inFlight[key]?.waiters[id] = waiter
                return false
            }
            state.inFlight[key] = Download(source: source, name: name, path: path, waiters: [id: waiter])
            state.queued.append(key)
            return true
        }
        if starts { startQueuedDownloads() }
    }

    /// Notes a hit's use for the LRU order; a use noted also sets the entry's modification time, which
    /// tells later runs (of any process) that it is known to the minute.
    private func noteUse(_ name: String, of image: DiskStore.OpenedImage) {
        if journal.noteUsed(name, bytes: image.bytes, lastNoted: image.modified) { image.file.touch() }
    }

    private func hit(_ source: ThumbnailSource, path: String, id: Int, waiter: Waiter) {
        let name = String(path.suffix(from: path.index(after: path.lastIndex(of: "/") ?? path.startIndex)))
        guard waiter.verifiesHits else {
            journal.noteCounters(Counters(hits: 1))
            return deliver(.success(Delivered(path: path, name: name, bytes: nil)), to: waiter)
        }
        // A file damaged in the middle passes the cheap check: callers that will use the image get a
        // full decode, on the pool; a file that fails it is a miss, removed and fetched again.
        state.withLock { $0.verifying[id] = waiter }
        pool.submit { [self] in
            let bytes = FileManager.default.contents(atPath: path)
            let whole = bytes.flatMap({ try? ImageDecoder.check($0) }) != nil
            // Cancelled meanwhile: the cancel has answered it.
            guard let waiter = state.withLock({ $0.verifying.removeValue(forKey: id) }) else { return }
            guard whole else {
                unlink(path)
                return request(source, id: id, waiter: waiter)
            }
            journal.noteCounters(Counters(hits: 1))
            deliver(.success(Delivered(path: path, name: name, bytes: bytes)), to: waiter)
        }
    }

    /// Removes one requester; the download goes on for the others (and for the disk).
    func cancel(_ request: ThumbnailRequest) {
        guard let key = request.key else { return }
        let waiter = state.withLock { state in
            state.verifying.removeValue(forKey: request.id)
                ?? state.inFlight[key]?.waiters.removeValue(forKey: request.id)
        }
        if let waiter { deliver(.failure(.cancelled), to: waiter) }
    }

    /// Starts queued downloads while fewer than `maximumDownloadsInProgress` are in progress.
    private func startQueuedDownloads() {
        let starting = state.withLock { state -> [(String, Download)] in
            var starting: [(String, Download)] = []
            while state.inProgress < configuration.maximumDownloadsInProgress, let key = state.queued.popFirst() {
                guard let download = state.inFlight[key] else { continue }
                state.inProgress += 1
                starting.append((key, download))
            }
            return starting
        }
        for (key, download) in starting { begin(key, download) }
    }

    /// Takes the entry's cross-process lock (waiting on a timer while another process fetches it),
    /// then fetches unless that process stored it meanwhile. Downloads settled here are settled on the
    /// pool: settling starts the next download, which must not recurse through this call.
    private func begin(
        _ key: String, _ download: Download, waitingSince: DispatchTime = .now(),
        pause: Double = 0.001
    ) {
        let name = download.name
        let locks: EntryLocks, attempt: EntryLocks.Attempt
        do {
            locks = try entryLocks()
            attempt = try locks.tryLock(name)
        } catch {
            return pool.submit { [self] in finish(key, .failed(error)) }
        }
        if attempt == .heldElsewhere,
            DispatchTime.now().uptimeNanoseconds - waitingSince.uptimeNanoseconds
                < UInt64(EntryLocks.patience * 1e9)
        {
            return DispatchQueue.global().asyncAfter(deadline: .now() + pause) { [self] in
                begin(key, download, waitingSince: waitingSince, pause: min(pause * 2, 0.05))
            }
        }
        // Past its patience, a download goes ahead without the lock: at worst the image comes twice.
        let locked = attempt == .acquired
        if let bytes = store.openWholeImage(named: download.name)?.bytes {
            if locked { locks.unlock(name) }
            return pool.submit { [self] in finish(key, .storedByAnotherProcess(bytes: bytes)) }
        }
        origin.fetch(download.source.url) { [self] result in
            pool.submit { [self] in
                let outcome = store(result, as: download)
                if locked { locks.unlock(name) }
                finish(key, outcome)
            }
        }
    }

    /// Checks and stores a fetched body (on the pool).
    private func store(_ result: Result<Data, ThumbnailError>, as download: Download) -> DownloadOutcome {
        do throws(ThumbnailError) {
            let bytes = try Self.checked(try result.get(), source: download.source)
            try store.write(bytes, named: download.name)
            return .stored(bytes)
        } catch {
            return .failed(error)
        }
    }

    /// Settles a download with everyone waiting for it, and starts the next one.
    private func finish(_ key: String, _ outcome: DownloadOutcome) {
        let download = state.withLock { state in
            state.inProgress -= 1
            return state.inFlight.removeValue(forKey: key)
        }
        switch outcome {
        case let .stored(bytes):
            if let download { journal.noteStored(download.name, bytes: bytes.count) }
            journal.noteCounters(Counters(misses: 1, downloads: 1))
        case let .storedByAnotherProcess(bytes):
            if let download { journal.noteUsed(download.name, bytes: bytes) }
            journal.noteCounters(Counters(hits: 1))
        case .failed:
            journal.noteCounters(Counters(misses: 1, failures: 1))
        }
        if let download {
            let result: Result<Delivered, ThumbnailError> =
                outcome.error.map { .failure($0) }
                ?? .success(Delivered(path: download.path, name: download.name, bytes: outcome.stored))
            for waiter in download.waiters.values { deliver(result, to: waiter) }
        }
        startQueuedDownloads()
    }

    private func deliver(_ result: Result<Delivered, ThumbnailError>, to waiter: Waiter) {
        guard let queue = waiter.queue else { return waiter.completion(result) }
        queue.async { waiter.completion(result) }
    }

    /// The largest side accepted for an image to crop a square from, or a medium image.
    static let maximumSourceSide = 4_096

    /// The bytes to store: the image itself after a full decode (cut after its end marker), or the
    /// square cropped from it as PNG.
    static func checked(_ body: Data, source: ThumbnailSource) throws(ThumbnailError) -> Data {
        do {
            // The size is checked before decoding allocates: a tiny file may claim a huge image.
            let maximumSide = source.expectedSide.map { $0 * 2 } ?? maximumSourceSide
            guard let side = source.derivedSide else {
                _ = try ImageDecoder.check(body, maximumSide: maximumSide)
                guard let whole = ImageDecoder.trimmedToEnd(body) else {
                    throw ImageError.undecodable("the file does not end with its end marker")
                }
                return whole
            }
            return try PNGCodec.encode(ImageDecoder.decode(body, maximumSide: maximumSide).0.centreSquare(side: side))
        } catch let error as ImageError {
            throw .invalidImage(url: HTTPError.redacted(source.url), error)
        } catch {
            throw .invalidImage(url: HTTPError.redacted(source.url), .undecodable("\(error)"))
        }
    }
}

// MARK: - Supporting types

/// An image answered from the cache: its file open for reading, or the bytes just stored.
public struct CachedImage: Sendable {
    /// Where the image's bytes are.
    public enum Contents: Sendable {
        /// The entry on disk, open.
        case file(OpenFile)
        /// The bytes as checked and stored (a fetch hands them back rather than opening the file again).
        case bytes(Data)
    }

    /// Its name in the cache (the SHA-256 of its URL): an ETag that changes only with the URL.
    public let name: String
    /// Its bytes, open or in memory.
    public let contents: Contents
    /// Its size.
    public let bytes: Int
    /// PNG or JPEG.
    public let format: ImageDecoder.Format
}

/// What the cache holds for a photo's image: the entry, or the miss to fetch.
public enum ImageLookup: Sendable {
    /// On disk and whole.
    case cached(CachedImage)
    /// Not on disk (or no image to fetch): `ThumbnailCache.fetch` it.
    case missing(ImageMiss)
}

/// An image `lookUpImage` did not find, with what it resolved, so the fetch need not resolve or hash again.
public struct ImageMiss: Sendable {
    let photoID: String
    /// Nil when the record names no image of that size.
    let source: ThumbnailSource?
    /// The entry's name (the key's hash).
    let name: String
}

/// A handle on one request for a square; cancelling it affects only this requester.
public final class ThumbnailRequest: Sendable {
    private static let counter = Atomic<Int>(0)
    let id = ThumbnailRequest.nextID()
    /// The image's cache key; nil when the record names no image.
    let key: String?
    private let cache: ThumbnailCache

    init(cache: ThumbnailCache, key: String?) {
        self.cache = cache
        self.key = key
    }

    /// A number no other request of this process has.
    static func nextID() -> Int { counter.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Stops waiting: this requester gets `.cancelled`; the download continues for the others.
    public func cancel() { cache.cancel(self) }
}

/// What a requester is handed: the entry's path and name, and its bytes when they were in hand (just
/// stored, or read for the full check).
private struct Delivered: Sendable {
    let path: String
    let name: String
    let bytes: Data?
}

/// A requester waiting for an image: where and what to call back with the entry. Without a queue
/// the callback runs on whichever thread settles the request, so it must be quick (the prefetch tally).
/// Requesters that will use the image have hits fully decoded; a prefetch, which only makes sure the
/// files are there, does not.
private struct Waiter: Sendable {
    let queue: DispatchQueue?
    var verifiesHits = true
    let completion: @Sendable (Result<Delivered, ThumbnailError>) -> Void
}

/// One image being fetched, and everyone waiting for it.
private struct Download: Sendable {
    let source: ThumbnailSource
    /// The entry's name (`SHA256.hex(key)`) and path.
    let name: String
    let path: String
    var waiters: [Int: Waiter]
}

private enum DownloadOutcome {
    case stored(Data)
    case storedByAnotherProcess(bytes: Int)
    case failed(ThumbnailError)

    var error: ThumbnailError? {
        if case let .failed(error) = self { return error }
        return nil
    }

    /// The bytes stored by this process.
    var stored: Data? {
        if case let .stored(bytes) = self { return bytes }
        return nil
    }
}

/// Hits, misses, downloads and failures: this process's are added to the folder's in the journal.
struct Counters: Sendable, Equatable {
    var hits = 0
    var misses = 0
    var downloads = 0
    var failures = 0

    func adding(_ other: Counters) -> Counters {
        Counters(
            hits: hits + other.hits, misses: misses + other.misses, downloads: downloads + other.downloads,
            failures: failures + other.failures)
    }
}

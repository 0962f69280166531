import Dispatch
import Foundation

/// Square thumbnails fetched on demand and kept on disk, shared by every command.
///
/// Dispatch queues with one owner each: `stateQueue` (serial) owns the in-flight table, the waiting
/// downloads and the counters; `downloadQueue` runs at most `maximumConcurrentDownloads` downloads,
/// each with a fetcher (and curl handle) taken from a pool so connections are reused. Requests for
/// one image while it downloads share that download; cancelling one requester leaves the others be.
/// Across processes, an entry's `flock` makes each image be fetched once.
public final class ThumbnailCache: @unchecked Sendable {
    /// How the cache behaves.
    public struct Configuration: Sendable {
        /// The LRU limit; past it, least-recently-used entries go until ~70% remain.
        public var limitBytes: Int
        /// Downloads running at once.
        public var maximumConcurrentDownloads: Int
        /// Builds square URLs for records without `url_*` extras.
        public var imageHost: ImageHost

        /// 512 MB and 8 downloads at a time by default.
        public init(limitBytes: Int = 512 << 20, maximumConcurrentDownloads: Int = 8, imageHost: ImageHost = .flickr) {
            self.limitBytes = limitBytes
            self.maximumConcurrentDownloads = max(maximumConcurrentDownloads, 1)
            self.imageHost = imageHost
        }
    }

    /// The fraction of the limit an eviction sweep trims down to (Nuke's choice).
    public static let trimRatio = 0.7

    /// The folder holding the entries (`{cache}/thumbs`).
    public var directory: URL { store.root }
    /// The configuration in force.
    public let configuration: Configuration

    let store: DiskStore
    private let origin: any ImageOrigin
    let stateQueue = DispatchQueue(label: "photomap.thumbnails.state")
    private let downloadQueue = DispatchQueue(label: "photomap.thumbnails.downloads", attributes: .concurrent)
    private let fetchers: FetcherPool

    // Owned by stateQueue: read and written only there.
    private var inFlight: [String: Download] = [:]
    private var waiting: [Download] = []
    private var running = 0
    var counters = Counters()
    var estimatedBytes: Int?

    /// Creates a cache in `{cacheDirectory}/thumbs` fetching from `origin`.
    public init(cacheDirectory: URL, origin: any ImageOrigin, configuration: Configuration = Configuration()) {
        self.store = DiskStore(root: cacheDirectory.appendingPathComponent("thumbs"))
        self.origin = origin
        self.configuration = configuration
        self.fetchers = FetcherPool(origin: origin)
    }

    /// Asks for a photo's image (by default its 75×75 square); `completion` runs on `queue` with the
    /// local file, or the error.
    @discardableResult
    public func image(for photo: Photo, size: PhotoSize = .square, queue: DispatchQueue,
                       completion: @escaping @Sendable (Result<URL, ThumbnailError>) -> Void) -> ThumbnailRequest {
        let request = ThumbnailRequest(cache: self)
        let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost)
        stateQueue.async { [self] in
            guard let source else {
                return deliver(.failure(.noImage(photoID: photo.id)), to: Waiter(queue: queue, completion: completion))
            }
            start(source, request: request, waiter: Waiter(queue: queue, completion: completion))
        }
        return request
    }

    /// The image's file, waiting for it: for callers without a queue of their own.
    public func imageNow(for photo: Photo, size: PhotoSize = .square) -> Result<URL, ThumbnailError> {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        image(for: photo, size: size, queue: .global()) { outcome in
            result.set(outcome)
            done.signal()
        }
        done.wait()
        return result.value ?? .failure(.cancelled)
    }

    /// The cached file of a photo's image when it is on disk and whole (the cheap check); no fetch.
    public func cachedFile(for photo: Photo, size: PhotoSize = .square) -> URL? {
        guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost), source.isFetchable
        else { return nil }
        let file = store.file(for: source.key)
        return store.holdsImage(file) ? file : nil
    }

    /// Fetches the squares of many photos, reporting progress on `queue` (at most every 50 ms, and
    /// at the end), then the report. All requests enter the state queue together, and answers are
    /// tallied there: a warm prefetch makes no thread hop per photo.
    public func prefetch(_ photos: [Photo], size: PhotoSize = .square, queue: DispatchQueue,
                         progress: @escaping @Sendable (PrefetchProgress) -> Void,
                         completion: @escaping @Sendable (PrefetchReport) -> Void) {
        let tally = PrefetchTally(total: photos.count)
        guard !photos.isEmpty else { return queue.async { completion(tally.report) } }
        let sources = photos.map { ThumbnailSource.resolve($0, size: size, imageHost: configuration.imageHost) }
        stateQueue.async { [self] in
            for (photo, source) in zip(photos, sources) {
                let waiter = Waiter(queue: nil, verifiesHits: false) { result in
                    let (snapshot, finished, due) = tally.record(result, photoID: photo.id)
                    if due { queue.async { progress(snapshot) } }
                    if finished { queue.async { completion(tally.report) } }
                }
                guard let source else {
                    deliver(.failure(.noImage(photoID: photo.id)), to: waiter)
                    continue
                }
                start(source, request: ThumbnailRequest(cache: self), waiter: waiter)
            }
        }
    }

    // MARK: - Requests (on stateQueue)

    private func start(_ source: ThumbnailSource, request: ThumbnailRequest, waiter: Waiter) {
        dispatchPrecondition(condition: .onQueue(stateQueue))
        guard source.isFetchable else {
            return deliver(.failure(.unsupportedURL(HTTPError.redacted(source.url))), to: waiter)
        }
        let key = source.key
        let file = store.file(for: key)
        if let download = inFlight[key] {
            download.waiters[request.id] = waiter
            request.attach(key: key)
            return
        }
        if store.holdsImage(file) {
            counters.hits += 1
            store.touch(file)
            guard waiter.verifiesHits else { return deliver(.success(file), to: waiter) }
            // A file damaged in the middle passes the cheap check: callers that will use the image get a
            // full decode, off the state queue; a file that fails it is a miss, removed and fetched again.
            downloadQueue.async { [self] in
                guard (try? Data(contentsOf: file)).flatMap({ try? ImageDecoder.decode($0) }) == nil else {
                    return deliver(.success(file), to: waiter)
                }
                unlink(file.path)
                stateQueue.async { [self] in start(source, request: request, waiter: waiter) }
            }
            return
        }
        let download = Download(key: key, source: source, file: file)
        download.waiters[request.id] = waiter
        request.attach(key: key)
        inFlight[key] = download
        waiting.append(download)
        startWaitingDownloads()
    }

    /// Removes one requester; the download goes on for the others (and for the disk).
    func cancel(_ request: ThumbnailRequest) {
        stateQueue.async { [self] in
            guard let key = request.key, let download = inFlight[key],
                  let waiter = download.waiters.removeValue(forKey: request.id) else { return }
            deliver(.failure(.cancelled), to: waiter)
        }
    }

    /// Starts workers up to the concurrency limit. A worker keeps taking waiting downloads until none
    /// is left, and settles each on the state queue with `sync`, which runs on the worker's own thread:
    /// no thread hop per image.
    private func startWaitingDownloads() {
        while running < configuration.maximumConcurrentDownloads, !waiting.isEmpty {
            let first = waiting.removeFirst()
            running += 1
            downloadQueue.async { [self] in
                var next: Download? = first
                while let download = next {
                    let outcome = fetchAndStore(download)
                    next = stateQueue.sync { finish(download, outcome) }
                }
            }
        }
    }

    /// Settles a download with everyone waiting for it; returns the next one for this worker, or nil
    /// when the worker should stop.
    private func finish(_ download: Download, _ outcome: DownloadOutcome) -> Download? {
        inFlight[download.key] = nil
        switch outcome {
        case let .stored(bytes):
            counters.misses += 1
            counters.downloads += 1
            estimatedBytes = (estimatedBytes ?? store.entries().reduce(0) { $0 + $1.bytes }) + bytes
            if let total = estimatedBytes, total > configuration.limitBytes {
                let target = Int(Double(configuration.limitBytes) * Self.trimRatio)
                estimatedBytes = total - store.evict(downTo: target, keeping: download.file).bytes
            }
        case .storedByAnotherProcess:
            counters.hits += 1
        case .failed:
            counters.misses += 1
            counters.failures += 1
        }
        let result: Result<URL, ThumbnailError> = outcome.error.map { .failure($0) } ?? .success(download.file)
        for waiter in download.waiters.values { deliver(result, to: waiter) }
        download.waiters.removeAll()
        guard !waiting.isEmpty else {
            running -= 1
            return nil
        }
        return waiting.removeFirst()
    }

    private func deliver(_ result: Result<URL, ThumbnailError>, to waiter: Waiter) {
        guard let queue = waiter.queue else { return waiter.completion(result) }
        queue.async { waiter.completion(result) }
    }

    // MARK: - Downloading (on downloadQueue)

    /// Fetches, checks and stores one image, holding its cross-process lock.
    private func fetchAndStore(_ download: Download) -> DownloadOutcome {
        let lock: FileLock?
        do {
            try store.createFolder(of: download.file)
            let lockPath = store.lockPath(for: download.file)
            try store.createFolder(of: URL(fileURLWithPath: lockPath))
            lock = try FileLock(path: lockPath)
        } catch {
            return .failed(error)
        }
        return withExtendedLifetime(lock) { () -> DownloadOutcome in
            // Another process may have stored it while this one waited for the lock.
            if store.holdsImage(download.file) { return .storedByAnotherProcess }
            let fetcher = fetchers.take()
            defer { fetchers.give(back: fetcher) }
            do throws(ThumbnailError) {
                let bytes = try Self.checked(try fetcher.fetch(download.source.url), source: download.source)
                try store.write(bytes, to: download.file)
                return .stored(bytes: bytes.count)
            } catch {
                return .failed(error)
            }
        }
    }

    /// The largest side accepted for an image to crop a square from, or a medium image.
    static let maximumSourceSide = 4_096

    /// The bytes to store: the image itself after a full decode (cut after its end marker), or the
    /// square cropped from it as PNG.
    static func checked(_ body: Data, source: ThumbnailSource) throws(ThumbnailError) -> Data {
        let url = HTTPError.redacted(source.url)
        do {
            // Checked before decoding allocates: a tiny file may claim a huge image.
            let (image, _) = try ImageDecoder.decode(body, maximumSide: source.expectedSide.map { $0 * 2 } ?? maximumSourceSide)
            guard let side = source.derivedSide else {
                guard let whole = ImageDecoder.trimmedToEnd(body) else {
                    throw ImageError.undecodable("the file does not end with its end marker")
                }
                return whole
            }
            return try PNGCodec.encode(image.centreSquare(side: side))
        } catch let error as ImageError {
            throw .invalidImage(url: url, error)
        } catch {
            throw .invalidImage(url: url, .undecodable("\(error)"))
        }
    }
}

// MARK: - Supporting types

/// A handle on one request for a square; cancelling it affects only this requester.
public final class ThumbnailRequest: @unchecked Sendable {
    private static let counter = RequestCounter()
    let id = ThumbnailRequest.counter.next()
    private weak var cache: ThumbnailCache?
    // Written on the cache's state queue before any cancel() can read it there.
    private(set) var key: String?

    init(cache: ThumbnailCache) {
        self.cache = cache
    }

    func attach(key: String) { self.key = key }

    /// Stops waiting: this requester gets `.cancelled`; the download continues for the others.
    public func cancel() { cache?.cancel(self) }
}

/// Numbers requests, cheaper than a UUID each.
private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var last = 0
    func next() -> Int { lock.withLock { last += 1; return last } }
}

/// A requester waiting for an image: where and what to call back. Without a queue the callback
/// runs on the state queue itself, so it must be quick (the prefetch tally). Requesters that will use
/// the image have hits fully decoded; a prefetch, which only makes sure the files are there, does not.
private struct Waiter {
    let queue: DispatchQueue?
    var verifiesHits = true
    let completion: @Sendable (Result<URL, ThumbnailError>) -> Void
}

/// One image being fetched, and everyone waiting for it.
/// `waiters` is read and written only on the cache's state queue; the rest never changes.
private final class Download: @unchecked Sendable {
    let key: String
    let source: ThumbnailSource
    let file: URL
    var waiters: [Int: Waiter] = [:]

    init(key: String, source: ThumbnailSource, file: URL) {
        self.key = key
        self.source = source
        self.file = file
    }
}

private enum DownloadOutcome {
    case stored(bytes: Int)
    case storedByAnotherProcess
    case failed(ThumbnailError)

    var error: ThumbnailError? {
        if case let .failed(error) = self { return error }
        return nil
    }
}

/// This process's hits and misses, added to the folder's totals by `saveStatistics()`.
struct Counters: Codable, Sendable, Equatable {
    var hits = 0
    var misses = 0
    var downloads = 0
    var failures = 0
}

/// Fetchers not in use, so each download reuses a warm connection.
private final class FetcherPool: @unchecked Sendable {
    private let origin: any ImageOrigin
    private let lock = NSLock()
    // Guarded by `lock`.
    private var idle: [any ImageFetcher] = []

    init(origin: any ImageOrigin) {
        self.origin = origin
    }

    func take() -> any ImageFetcher {
        lock.withLock { idle.popLast() } ?? origin.makeFetcher()
    }

    func give(back fetcher: any ImageFetcher) {
        lock.withLock { idle.append(fetcher) }
    }
}

/// Hands a result from a callback to a waiting thread.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<URL, ThumbnailError>?
    func set(_ value: Result<URL, ThumbnailError>) { lock.withLock { stored = value } }
    var value: Result<URL, ThumbnailError>? { lock.withLock { stored } }
}

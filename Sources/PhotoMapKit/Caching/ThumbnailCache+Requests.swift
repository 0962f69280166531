// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport

extension ThumbnailCache {
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

    /// Answers `waiter` from disk, from a download in flight, or from a new one. `name` is the key's
    /// hash when the caller knows it; `lookedUp`: the caller has just looked on disk and missed.
    func request(
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
            return hit(source, name: name, path: path, id: id, waiter: waiter)
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

    private func hit(_ source: ThumbnailSource, name: String, path: String, id: Int, waiter: Waiter) {
        guard waiter.verifiesHits else {
            count(Counters(hits: 1), "hit", source.key)
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
                return request(source, name: name, id: id, waiter: waiter)
            }
            count(Counters(hits: 1), "hit", source.key)
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

    func deliver(_ result: Result<Delivered, ThumbnailError>, to waiter: Waiter) {
        guard let queue = waiter.queue else { return waiter.completion(result) }
        queue.async { waiter.completion(result) }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// `photomap serve`'s images: `/squares/ID` and `/images/ID`, a photo's 75×75 square and medium image
/// from the thumbnail cache, fetched into it the first time they are asked for.
extension ServerRoutes {
    func image(_ id: String, size: PhotoSize, request: ServerRequest) -> HTTPServer.Reply {
        guard Self.isPhotoID(id) else { return .now(placeholderImage(400)) }
        // An imported photo may have been made private since it was listed: the records are checked against
        // the catalog's version first, off this thread.
        if !LocalPhotoID.isValid(id), let photo = known.withLock({ $0.photos[id]?.record }) {
            return image(of: photo, size: size, request: request)
        }
        // Listed by another server sharing the index (behind a proxy), or by this one before it restarted.
        return .later { [self] answer in
            let accepted = slowWork.submit(
                {
                    let entry: AnnotatedPhoto
                    do {
                        try self.forgetIfSourceChanged()
                        guard let found = try self.known.withLock({ $0.photos[id] }) ?? self.lookedUpPhoto(id) else {
                            return answer(self.placeholderImage(404))
                        }
                        entry = found
                    } catch {
                        // The shared index is away (a database restarting): worth asking again shortly.
                        self.services.log("photo \(id) could not be looked up: \(error)")
                        return answer(
                            self.placeholderImage((error as? DatabaseError)?.isUnavailable == true ? 503 : 502))
                    }
                    switch self.image(of: entry.record, size: size, request: request) {
                    case let .now(response): answer(response)
                    case let .later(work): work(answer)
                    }
                }, maximumWaiting: Self.maximumWaiting)
            if !accepted { answer(self.placeholderImage(503)) }
        }
    }

    func image(of photo: Photo, size: PhotoSize, request: ServerRequest) -> HTTPServer.Reply {
        let miss: ImageMiss
        switch services.cache.lookUpImage(for: photo, size: size) {
        case let .cached(image): return .now(imageResponse(image, of: photo, request: request))
        case let .missing(missed): miss = missed
        }
        // No image of that size to fetch: known now, without holding the connection.
        guard miss.canFetch else { return .now(placeholderImage(404)) }
        let cache = services.cache, log = services.log
        return .later { [self] answer in
            // Answered from what the cache stored: the entry is not looked up and opened again.
            cache.fetch(miss, queue: .global()) { result in
                switch result {
                case let .success(image):
                    answer(self.imageResponse(image, of: photo, request: request))
                case let .failure(error):
                    log("no \(size == .medium ? "image" : "square") for photo \(photo.id): \(error)")
                    // No image to make one from, or none in the cache of a server `--offline`: there is
                    // nothing to fetch, so nothing to try again.
                    let missing: Bool
                    switch error {
                    case .noImage, .offline: missing = true
                    default: missing = false
                    }
                    answer(self.placeholderImage(missing ? 404 : 502))
                }
            }
        }
    }

    /// A cached image: its name is the SHA-256 of its URL, so it is its own ETag. An imported photo's is
    /// the user's own: kept by the browser only, never by a cache shared with others (nginx's).
    func imageResponse(_ image: CachedImage, of photo: Photo, request: ServerRequest) -> ServerResponse {
        let tag = "\"\(image.name)\""
        let sharing = LocalPhotoID.isValid(photo.id) ? "private" : "public"
        let headers = Self.commonHeaders + [("ETag", tag), ("Cache-Control", "\(sharing), max-age=86400")]
        if request.headers["if-none-match"]?.split(separator: ",")
            .contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) == true
        {
            return ServerResponse(status: 304, headers: headers)
        }
        return ServerResponse(
            status: 200,
            headers: headers + [("Content-Type", image.format == .png ? "image/png" : "image/jpeg")],
            body: image.body)
    }

    /// The pages' placeholder, with an error status: the image could not be had.
    func placeholderImage(_ status: Int) -> ServerResponse {
        ServerResponse(
            status: status,
            headers: Self.commonHeaders + [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")]
                // A 503 is worth trying again shortly, as every other 503 says.
                + (status == 503 ? [("Retry-After", String(Self.retryAfterSeconds))] : []),
            body: .bytes(placeholder))
    }
}

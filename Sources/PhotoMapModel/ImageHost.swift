// SPDX-License-Identifier: Apache-2.0
/// Where photo images are served, for records that came without `url_*` extras.
public struct ImageHost: Sendable, Hashable {
    /// Flickr's static image host (misc.urls).
    public static let flickr = ImageHost(base: "https://live.staticflickr.com")

    /// The scheme and host (and optional path) before `/{server}/…`, without a trailing slash.
    public let base: String

    /// Creates a host; a trailing slash is dropped.
    public init(base: String) {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }

    /// `{base}/{server}/{id}_{secret}{suffix}.jpg`, or nil when the record lacks server or secret.
    public func url(for photo: Photo, size: PhotoSize) -> String? {
        guard !photo.server.isEmpty, !photo.secret.isEmpty else { return nil }
        return "\(base)/\(photo.server)/\(photo.id)_\(photo.secret)\(size.urlSuffix).jpg"
    }
}

extension Photo {
    /// The photo with its images on Flickr's static host moved to `host`: the embedded catalog's URLs
    /// name Flickr's host, and a local mirror of its images (`--image-host`) serves them instead.
    public func rehosted(on host: ImageHost) -> Photo {
        guard host != .flickr else { return self }
        var photo = self
        photo.images = images.rehosted(from: .flickr, to: host)
        return photo
    }
}

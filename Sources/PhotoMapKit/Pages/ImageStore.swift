// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// What pages need of the images they show, and nothing more: a photo's image as a local file (a
/// written page places it beside itself), and the name that image keeps wherever it is, which is nil
/// when the photo has no image to fetch (a served page then shows the placeholder). Pages never fetch:
/// `ThumbnailCache`, the store, fetches before (a prefetch) or when a browser asks (`serve`).
public protocol ImageStore: Sendable {
    /// The name of a photo's image of `size`, one per image URL (the same in every store and site);
    /// nil when the photo has no image of this size to fetch. No I/O.
    func imageName(of photo: Photo, size: PhotoSize) -> String?
    /// The local file holding a photo's image of `size`, when the store holds it whole. No fetch.
    func localImage(of photo: Photo, size: PhotoSize) -> LocalImage?
}

/// A photo's image as a file on this machine.
public struct LocalImage: Sendable {
    /// Its name (`ImageStore.imageName`).
    public let name: String
    /// Where it is.
    public let path: String
    /// "png" or "jpg", from its bytes.
    public let fileExtension: String

    /// An image at `path`.
    public init(name: String, path: String, fileExtension: String) {
        self.name = name
        self.path = path
        self.fileExtension = fileExtension
    }
}

extension ThumbnailCache: ImageStore {
    /// The cache entry's name: the SHA-256 of the image's URL.
    public func imageName(of photo: Photo, size: PhotoSize) -> String? {
        entryName(for: photo, size: size)
    }

    /// The cache's file when it is there and whole; using it for a page counts no hit.
    public func localImage(of photo: Photo, size: PhotoSize) -> LocalImage? {
        openCachedImage(for: photo, size: size).map {
            LocalImage(name: $0.name, path: store.path(named: $0.name), fileExtension: $0.format.fileExtension)
        }
    }
}

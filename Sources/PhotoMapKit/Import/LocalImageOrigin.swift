// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Imported photos' images (`LocalImageURL`), made again from the photo's file when the cache no longer
/// holds them (its limit let them go): the file is read only if it is as it was imported, and only the
/// small image is handed over, never the original. A records photo's are made from its image
/// (`RecordImages`, URLs through `web`). Every other URL goes to `fallback`.
public struct LocalImageOrigin: ImageOrigin {
    /// Opens the catalog, only when a local image is asked for (nil: nothing imported).
    private let catalog: @Sendable () throws -> (any LocalCatalogStore)?
    /// Where other images come from.
    public let fallback: any ImageOrigin
    /// Where records photos' image URLs are fetched.
    public let web: any ImageOrigin

    /// An origin over the catalog `catalog` opens, records' image URLs to `web` (by default `fallback`),
    /// other URLs to `fallback`.
    public init(
        catalog: @escaping @Sendable () throws -> (any LocalCatalogStore)?, fallback: any ImageOrigin,
        web: (any ImageOrigin)? = nil
    ) {
        self.catalog = catalog
        self.fallback = fallback
        self.web = web ?? fallback
    }

    public func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        guard let local = LocalImageURL(url) else { return fallback.fetch(url, completion: completion) }
        let files = Result { try catalog()?.files(ofPhoto: local.photoID) ?? [] }
        if case .success(let files) = files,
            let image = files.lazy.compactMap({ RecordSource.image(of: $0.path) }).first
        {
            return RecordImages(web: web).make(local, from: image, completion: completion)
        }
        completion(
            Result { try make(local, files: files.get()) }.mapError { error in
                switch error {
                case let error as ThumbnailError: error
                case let error as ImageError: .invalidImage(url: url, error)
                default: .originalGone(photoID: local.photoID)
                }
            })
    }

    private func make(_ image: LocalImageURL, files: [(path: [UInt8], state: LocalFileState)]) throws -> Data {
        for (path, recorded) in files {
            guard case .photo(let file) = PhotoFile.open(path, maximumBytes: Importer.maximumFileBytes),
                Int64(file.size) == recorded.size
            else { continue }
            let made: ReadPhotoFile?
            do {
                // Other bytes than the photo's (the file changed) are not decoded.
                made = try PhotoFileReader.read(file, unless: { $0 != image.photoID }).read
            } catch is PhotoFile.ReadFailure {
                continue
            }
            guard let made else { continue }
            return image.size == .medium ? made.medium : made.square
        }
        throw ThumbnailError.originalGone(photoID: image.photoID)
    }
}

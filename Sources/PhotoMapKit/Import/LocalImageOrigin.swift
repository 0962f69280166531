import Foundation

/// Imported photos' images (`LocalImageURL`), made again from the photo's file when the cache no longer
/// holds them (its limit let them go): the file is read only if it is as it was imported, and only the
/// small image is handed over, never the original. Every other URL goes to `fallback`.
public struct LocalImageOrigin: ImageOrigin {
    /// Opens the catalog, only when a local image is asked for (nil: nothing imported).
    private let catalog: @Sendable () throws -> (any LocalCatalogStore)?
    /// Where other images come from.
    public let fallback: any ImageOrigin

    /// An origin over the catalog `catalog` opens, other URLs to `fallback`.
    public init(catalog: @escaping @Sendable () throws -> (any LocalCatalogStore)?, fallback: any ImageOrigin) {
        self.catalog = catalog
        self.fallback = fallback
    }

    public func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        guard let local = LocalImageURL(url) else { return fallback.fetch(url, completion: completion) }
        completion(
            Result { try make(local) }.mapError { error in
                switch error {
                case let error as ThumbnailError: error
                case let error as ImageError: .invalidImage(url: url, error)
                default: .imported(.originalGone(photoID: local.photoID))
                }
            })
    }

    private func make(_ image: LocalImageURL) throws -> Data {
        for (path, recorded) in try catalog()?.files(ofPhoto: image.photoID) ?? [] {
            var info = stat()
            guard stat(FileWalker.cString(path), &info) == 0, Int64(info.st_size) == recorded.size,
                let data = try? Importer.contents(of: path), LocalPhotoID.of(data) == image.photoID,
                let kind = PhotoFileReader.kind(of: data)
            else { continue }
            let read = try PhotoFileReader.read(data, as: kind)
            return image.size == .medium ? read.medium : read.square
        }
        throw ThumbnailError.imported(.originalGone(photoID: image.photoID))
    }
}

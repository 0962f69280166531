// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapNetworking

extension ThumbnailCache {
    /// Stores an image made on this machine (an imported photo's square or medium image) as the entry of
    /// a photo's image of `size`, checked as a fetched one is: pages, `serve`, `export` and `cache verify`
    /// use it unchanged.
    public func keep(_ bytes: Data, for photo: Photo, size: PhotoSize) throws(ThumbnailError) {
        guard let (source, name) = entry(for: photo, size: size) else { throw .noImage(photoID: photo.id) }
        let checked = try Self.checked(bytes, source: source)
        try store.write(checked, named: name)
        journal.noteStored(name, bytes: checked.count)
    }

    /// Checks and stores a fetched body (on the pool).
    func store(_ result: Result<Data, ThumbnailError>, as download: Download) -> DownloadOutcome {
        do throws(ThumbnailError) {
            let bytes = try Self.checked(try result.get(), source: download.source)
            try store.write(bytes, named: download.name)
            return .stored(bytes)
        } catch {
            return .failed(error)
        }
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

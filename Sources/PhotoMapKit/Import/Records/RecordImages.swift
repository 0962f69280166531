// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapNetworking

/// Makes a records photo's square and medium images from its image when first asked for, as Flickr's
/// squares are fetched: a URL through `web` (http and https only, its size capped by the origin), a path
/// read as `import` reads photo files (a regular file, at most `Importer.maximumFileBytes`, its decode
/// reserved in `PhotoFileReader.budget`). A path is the user's own file, given by them in their records:
/// it may lie anywhere they can read, but only a JPEG or HEIC is decoded and only the small images made
/// from it are ever handed over. The decode runs off the caller's thread.
struct RecordImages {
    let web: any ImageOrigin

    func make(
        _ wanted: LocalImageURL, from image: PhotoRecord.Image,
        completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void
    ) {
        switch image {
        case .url(let url):
            web.fetch(url) { fetched in
                switch fetched {
                case .failure(let error): completion(.failure(error))
                case .success(let data):
                    DispatchQueue.global().async { completion(Self.decode(data, wanted: wanted, url: url)) }
                }
            }
        case .file(let path):
            DispatchQueue.global().async { completion(Self.read(path, wanted: wanted)) }
        }
    }

    /// The image of `wanted`'s size from fetched bytes, the decode's memory reserved first.
    private static func decode(_ data: Data, wanted: LocalImageURL, url: String) -> Result<Data, ThumbnailError> {
        let shown = HTTPError.redacted(url)
        guard let kind = PhotoFileReader.kind(of: data) else {
            return .failure(.invalidImage(url: shown, .undecodable("neither JPEG nor HEIC")))
        }
        do {
            let needed = try PhotoFileReader.decodeMemory(of: data, as: kind)
            guard PhotoFileReader.budget.reserve(needed) else {
                return .failure(.invalidImage(url: shown, .tooCostly("needs \(needed >> 20) MB to decode")))
            }
            defer { PhotoFileReader.budget.release(needed) }
            let read = try PhotoFileReader.read(data, as: kind, maximumMemory: needed)
            return .success(wanted.size == .medium ? read.medium : read.square)
        } catch let error as ImageError {
            return .failure(.invalidImage(url: shown, error))
        } catch {
            return .failure(.invalidImage(url: shown, .undecodable("\(error)")))
        }
    }

    /// The image of `wanted`'s size from the file at `path`.
    private static func read(_ path: String, wanted: LocalImageURL) -> Result<Data, ThumbnailError> {
        // The path is never shown: a page's error says which photo, the owner's terminal which file.
        let failed = ThumbnailError.originalGone(photoID: wanted.photoID)
        guard case .photo(let file) = PhotoFile.open(Array(path.utf8), maximumBytes: Importer.maximumFileBytes) else {
            return .failure(failed)
        }
        do {
            guard let read = try PhotoFileReader.read(file, unless: { _ in false }).read else {
                return .failure(failed)
            }
            return .success(wanted.size == .medium ? read.medium : read.square)
        } catch let error as ImageError {
            return .failure(.invalidImage(url: wanted.url, error))
        } catch {
            return .failure(failed)
        }
    }
}

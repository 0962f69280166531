// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The recently viewed photos in `{cache}/recent.json`, shared by every process using the folder:
/// each change is read, made and written under the file's lock, so two servers never lose each
/// other's views.
public struct RecentPhotos: RecentsStore {
    /// The file holding them.
    public let file: URL

    /// The recents of the cache folder `cacheDirectory`.
    public init(cacheDirectory: URL) {
        file = cacheDirectory.appendingPathComponent("recent.json")
    }

    /// None when there is no file yet (reading creates nothing).
    public func photos() throws(RecentsError) -> [Photo] {
        do {
            return Self.decode(try LockedFile.read(file.path))
        } catch {
            throw .unreadable(path: file.path, reason: LockedFile.reason(error))
        }
    }

    public func viewed(_ photo: Photo) throws(RecentsError) {
        do {
            try LockedFile.update(file.path) { contents in
                let photos = [photo] + Self.decode(contents).filter { $0.id != photo.id }
                return (try JSONOutput.data(Array(photos.prefix(Self.capacity))), ())
            }
        } catch {
            throw .unwritable(path: file.path, reason: LockedFile.reason(error))
        }
    }

    /// A damaged file (edited by hand, a failing disk) reads as no recents rather than an error.
    private static func decode(_ data: Data?) -> [Photo] {
        data.flatMap { try? JSONDecoder().decode([Photo].self, from: $0) } ?? []
    }
}

/// What can go wrong remembering a viewed photo.
public enum RecentsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The recents file cannot be read.
    case unreadable(path: String, reason: String)
    /// The recents file cannot be written.
    case unwritable(path: String, reason: String)

    /// What failed, with what.
    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read the recently viewed photos in \(path): \(reason)"
        case let .unwritable(path, reason): return "cannot remember the photo in \(path): \(reason)"
        }
    }
}

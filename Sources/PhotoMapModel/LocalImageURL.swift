// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport

/// The address of an imported photo's square or medium image: `photomap-local:{photo id}/{size}.jpg`.
/// It names the photo, never the file: the cache keys the image by it, and `LocalImageOrigin` makes the
/// image again from the photo's file should the cache have let it go.
public struct LocalImageURL: Sendable, Hashable {
    /// The scheme, which no network client fetches.
    public static let scheme = "photomap-local:"
    /// The photo's id (`LocalPhotoID`).
    public let photoID: String
    /// The size.
    public let size: PhotoSize

    /// The image of `size` of photo `photoID`.
    public init(photoID: String, size: PhotoSize) {
        self.photoID = photoID
        self.size = size
    }

    /// The parts of a local image URL, or nil for any other URL.
    public init?(_ url: String) {
        guard url.hasPrefix(Self.scheme), url.hasSuffix(".jpg") else { return nil }
        let parts = url.dropFirst(Self.scheme.count).dropLast(4).split(separator: "/")
        guard parts.count == 2, LocalPhotoID.isValid(parts[0]), let size = PhotoSize(rawValue: String(parts[1]))
        else { return nil }
        self.init(photoID: String(parts[0]), size: size)
    }

    /// The URL.
    public var url: String { "\(Self.scheme)\(photoID)/\(size.rawValue).jpg" }
}

/// An imported photo's id: "local-" and the first 24 hex digits of the SHA-256 of the file's bytes, so
/// the same photo keeps its id wherever its file is, and no path can be read from it.
public enum LocalPhotoID {
    /// The prefix that tells imported photos from Flickr's (whose ids are digits).
    public static let prefix = "local-"
    /// Hex digits kept of the digest.
    package static let digits = 24

    /// The id of a file with these bytes.
    public static func of(_ bytes: some Collection<UInt8>) -> String {
        prefix + SHA256.hex(bytes).prefix(digits)
    }

    /// Whether `id` has the shape of an imported photo's id.
    public static func isValid(_ id: some StringProtocol) -> Bool {
        id.hasPrefix(prefix) && id.utf8.count == prefix.utf8.count + digits
            && id.utf8.dropFirst(prefix.utf8.count).allSatisfy {
                (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
            }
    }
}

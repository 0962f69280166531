// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapNetworking

/// Where a photo's square comes from: the square URL itself, or a larger image to crop it from.
struct ThumbnailSource: Sendable, Hashable {
    /// The image to download.
    let url: String
    /// The size asked for.
    let size: PhotoSize
    /// Set when the square is made locally from `url` (a larger image).
    let derivedSide: Int?

    /// The record's own URL for the size; for a square without one, its larger image cropped locally;
    /// else the image on the image host.
    static func resolve(_ photo: Photo, size: PhotoSize, imageHost: ImageHost) -> ThumbnailSource? {
        if let own = photo.images[size]?.url {
            return ThumbnailSource(url: own, size: size, derivedSide: nil)
        }
        if let side = size.squareSide {
            let larger: [PhotoSize] = size == .square ? [.largeSquare, .medium] : [.medium]
            if let source = larger.lazy.compactMap({ photo.images[$0]?.url }).first {
                return ThumbnailSource(url: source, size: size, derivedSide: side)
            }
        }
        return imageHost.url(for: photo, size: size).map { ThumbnailSource(url: $0, size: size, derivedSide: nil) }
    }

    /// The cache key: the canonical URL, plus the crop for derived squares.
    var key: String {
        let canonical = Self.canonical(url)
        return derivedSide.map { "\(canonical)#square\($0)" } ?? canonical
    }

    /// The side a square URL's image should have; nil for derived squares and medium images.
    var expectedSide: Int? { derivedSide == nil ? size.squareSide : nil }

    /// Whether the URL may be fetched at all: http(s), or an imported photo's image (made from its file).
    var isFetchable: Bool { HTTPClient.scheme(of: url) != nil || LocalImageURL(url) != nil }

    /// Scheme and host lowercased, default port and fragment dropped: one image, one key.
    static func canonical(_ url: String) -> String {
        // Most URLs are canonical already (checked on their bytes, by index); parsing each one would cost
        // more than the cache hit.
        if url.utf8.withContiguousStorageIfAvailable(isPlainlyCanonical) == true { return url }
        guard var components = URLComponents(string: url) else { return url }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80)
            || (components.scheme == "https" && components.port == 443)
        {
            components.port = nil
        }
        components.fragment = nil
        return components.string ?? url
    }

    /// Whether an http(s) URL's bytes show it canonical: a lowercase authority without the scheme's
    /// default port, and no fragment.
    private static func isPlainlyCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let secure = bytes.starts(with: "https://".utf8)
        guard secure || bytes.starts(with: "http://".utf8) else { return false }
        let start = secure ? 8 : 7
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/") {
            if (0x41...0x5A).contains(bytes[end]) { return false }
            end += 1
        }
        let authority = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if authority.reversed().starts(with: (secure ? ":443" : ":80").utf8.reversed()) { return false }
        return !bytes.contains(UInt8(ascii: "#"))
    }
}

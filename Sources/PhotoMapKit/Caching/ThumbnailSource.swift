import Foundation

/// Where a photo's square comes from: the square URL itself, or a larger image to crop it from.
struct ThumbnailSource: Sendable, Hashable {
    /// The image to download.
    let url: String
    /// Set when the square is made locally from `url` (a larger image).
    let derivedSide: Int?

    /// The record's own square URL; else its larger image, cropped locally; else the square on the image host.
    static func resolve(_ photo: Photo, size: SquareSize, imageHost: ImageHost) -> ThumbnailSource? {
        if let own = photo.images[size.photoSize]?.url {
            return ThumbnailSource(url: own, derivedSide: nil)
        }
        let larger: [PhotoSize] = size == .small ? [.largeSquare, .medium] : [.medium]
        if let source = larger.lazy.compactMap({ photo.images[$0]?.url }).first {
            return ThumbnailSource(url: source, derivedSide: size.rawValue)
        }
        return imageHost.url(for: photo, size: size.photoSize).map { ThumbnailSource(url: $0, derivedSide: nil) }
    }

    /// The cache key: the canonical URL, plus the crop for derived squares.
    var key: String {
        let canonical = Self.canonical(url)
        return derivedSide.map { "\(canonical)#square\($0)" } ?? canonical
    }

    /// Whether the URL may be fetched at all.
    var isFetchable: Bool { HTTPClient.scheme(of: url) != nil }

    /// Scheme and host lowercased, default port and fragment dropped: one image, one key.
    static func canonical(_ url: String) -> String {
        // Most URLs are canonical already; parsing each one would cost more than the cache hit.
        let authority = url.drop { $0 != ":" }.dropFirst(3).prefix { $0 != "/" }
        if !url.contains("#"), !url.prefix(while: { $0 != "/" }).contains(where: \.isUppercase),
           !authority.contains(where: { $0.isUppercase || $0 == ":" }) {
            return url
        }
        guard var components = URLComponents(string: url) else { return url }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.fragment = nil
        return components.string ?? url
    }
}

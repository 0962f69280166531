// SPDX-License-Identifier: Apache-2.0
/// What the cache holds for a photo's image: the entry, or the miss to fetch.
public enum ImageLookup: Sendable {
    /// On disk and whole.
    case cached(CachedImage)
    /// Not on disk (or no image to fetch): `ThumbnailCache.fetch` it.
    case missing(ImageMiss)
}

/// An image `lookUpImage` did not find, with what it resolved, so the fetch need not resolve or hash again.
public struct ImageMiss: Sendable {
    let photoID: String
    /// Nil when the record names no image of that size.
    let source: ThumbnailSource?
    /// The entry's name (the key's hash).
    let name: String

    /// Whether the record names an image of that size, so there is something to fetch.
    package var canFetch: Bool { source != nil }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension ThumbnailCache {
    /// The cached file of a photo's image when it is on disk and whole (the cheap check); no fetch.
    /// Copying what a prefetch fetched counts no second hit.
    public func cachedFile(for photo: Photo, size: PhotoSize = .square) -> URL? {
        guard let (name, image) = lookUp(photo, size: size) else { return nil }
        noteUse(name, of: image)
        return store.file(named: name)
    }

    /// A request for a server: the entry opened for reading (to send as it is) when it is on disk and
    /// whole (the cheap check), counted as a hit; else the miss, for `fetch` to fetch without resolving,
    /// hashing or looking again.
    public func lookUpImage(for photo: Photo, size: PhotoSize = .square) -> ImageLookup {
        guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost) else {
            return .missing(ImageMiss(photoID: photo.id, source: nil, name: ""))
        }
        let name = SHA256.hex(source.key)
        guard source.isFetchable, let image = store.openWholeImage(named: name) else {
            return .missing(ImageMiss(photoID: photo.id, source: source, name: name))
        }
        noteUse(name, of: image)
        count(Counters(hits: 1), "hit", source.key)
        return .cached(CachedImage(name: name, contents: .file(image.file), bytes: image.bytes, format: image.format))
    }

    /// The entry of a photo's image when it is on disk and whole, for a page (no hit counted: the
    /// request it serves was counted already).
    func openCachedImage(for photo: Photo, size: PhotoSize) -> (name: String, format: ImageDecoder.Format)? {
        guard let (name, image) = lookUp(photo, size: size) else { return nil }
        noteUse(name, of: image)
        return (name, image.format)
    }

    /// The name of the entry that holds (or would hold) a photo's image: the SHA-256 of its key, so
    /// one image keeps one name. Nil when the photo has no image of this size to fetch. No I/O.
    public func entryName(for photo: Photo, size: PhotoSize) -> String? {
        entry(for: photo, size: size)?.name
    }

    /// Where a photo's image of `size` comes from and the name of its entry; nil when it has no image to fetch.
    func entry(for photo: Photo, size: PhotoSize) -> (source: ThumbnailSource, name: String)? {
        guard let source = ThumbnailSource.resolve(photo, size: size, imageHost: configuration.imageHost),
            source.isFetchable
        else { return nil }
        return (source, SHA256.hex(source.key))
    }

    private func lookUp(_ photo: Photo, size: PhotoSize) -> (String, DiskStore.OpenedImage)? {
        guard let name = entryName(for: photo, size: size) else { return nil }
        return store.openWholeImage(named: name).map { (name, $0) }
    }

    /// Counts a hit or a miss for `cache stats`, and tells it to the trace when one listens.
    func count(_ counters: Counters, _ outcome: String, _ key: String) {
        journal.noteCounters(counters)
        configuration.trace?("thumbnail cache \(outcome): \(key)")
    }

    /// Notes a hit's use for the LRU order; a use noted also sets the entry's modification time, which
    /// tells later runs (of any process) that it is known to the minute.
    func noteUse(_ name: String, of image: DiskStore.OpenedImage) {
        if journal.noteUsed(name, bytes: image.bytes, lastNoted: image.modified) { image.file.touch() }
    }
}

import Foundation

/// Keeps every listing fetched from Flickr in the local index, by whichever command fetched it, so an
/// `--offline search` later finds it, shown by the annotations the listing came with. A failure costs
/// the listing nothing: it is a warning.
public struct IndexRecorder: ListingRecorder {
    /// The index file.
    public let file: URL
    let warn: @Sendable (String) -> Void

    /// A recorder writing to the index at `file`.
    public init(file: URL, warn: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.warn = warn
    }

    /// Adds the records to the index (its own connection: listings arrive from parallel queries),
    /// unless the same records are there already: a listing answered from the cache was indexed when
    /// it was fetched, and writing 4,000 records again would cost more than listing them.
    public func record(places: [AnnotatedPlace], photos: [AnnotatedPhoto]) {
        guard !places.isEmpty || !photos.isEmpty else { return }
        var fingerprint = Fingerprint()
        for place in places { place.record.fingerprint(into: &fingerprint) }
        // The records, and the image URLs their annotations were given (which the image host decides).
        for photo in photos {
            photo.record.fingerprint(into: &fingerprint)
            fingerprint.add(photo.annotation.thumbnailURL)
            fingerprint.add(photo.annotation.imageURL)
        }
        let marker = "recorded " + fingerprint.hex
        do {
            let index = try LocalIndex(file: file)
            guard try index.marker(marker) == nil else { return }
            try CatalogIndexer(index: index).add(places: places, photos: photos)
            try index.setMarker(marker, "")
        } catch {
            warn("could not add the listing to the local index: \(error)")
        }
    }
}

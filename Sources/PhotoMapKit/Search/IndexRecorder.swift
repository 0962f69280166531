// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Keeps every listing fetched from Flickr in the local index, by whichever command fetched it, so an
/// `--offline search` later finds it, shown by the annotations the listing came with. A failure costs
/// the listing nothing: it is a warning.
public struct IndexRecorder: ListingRecorder {
    /// The index.
    public let index: any SearchIndexStore
    let warn: @Sendable (String) -> Void

    /// A recorder writing to `index`.
    public init(index: any SearchIndexStore, warn: @escaping @Sendable (String) -> Void) {
        self.index = index
        self.warn = warn
    }

    /// Adds the records to the index (its own handle: listings arrive from parallel queries),
    /// unless the same records are there already: a listing answered from the cache was indexed when
    /// it was fetched, and writing 4,000 records again would cost more than listing them.
    public func record(places: [AnnotatedPlace], photos: [AnnotatedPhoto]) {
        guard !places.isEmpty || !photos.isEmpty else { return }
        let inputs = InputDigest()
        inputs.add(places.count)
        for place in places { place.record.addFields(to: inputs) }
        // The records, and the image URLs their annotations were given (which the image host decides).
        for photo in photos {
            photo.record.addFields(to: inputs)
            inputs.add(photo.annotation.thumbnailURL)
            inputs.add(photo.annotation.imageURL)
        }
        let marker = "recorded " + inputs.finish()
        do {
            let handle = try index.open()
            guard try handle.marker(marker) == nil else { return }
            try CatalogIndexer(index: handle).add(places: places, photos: photos)
            try handle.setMarker(marker, "")
        } catch {
            warn("could not add the listing to the local index: \(error)")
        }
    }
}

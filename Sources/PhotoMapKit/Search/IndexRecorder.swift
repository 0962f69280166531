import Foundation

/// Keeps every listing fetched from Flickr in the local index, by whichever command fetched it, so an
/// `--offline search` later finds it. A failure costs the listing nothing: it is a warning.
public struct IndexRecorder: ListingRecorder {
    /// The index file.
    public let file: URL
    let adapter: AnnotationAdapter
    let warn: @Sendable (String) -> Void

    /// A recorder writing to the index at `file`.
    public init(file: URL, adapter: AnnotationAdapter, warn: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.adapter = adapter
        self.warn = warn
    }

    /// Adds the records to the index (its own connection: listings arrive from parallel queries).
    public func record(places: [Place], photos: [Photo]) {
        guard !places.isEmpty || !photos.isEmpty else { return }
        do {
            try CatalogIndexer(index: try LocalIndex(file: file), adapter: adapter).add(places: places, photos: photos)
        } catch {
            warn("could not add the listing to the local index: \(error)")
        }
    }
}

import Foundation

/// The photos `photomap import` read, as a photo source: places ranked by photo count (the photos
/// without a location last), a place's photos newest first. Read from the local catalog in the cache
/// folder; nothing here touches the photos' files.
public struct LocalSource: PhotoSource, PlaceDescribing {
    /// The catalog file.
    public let catalogFile: URL
    private let adapter: AnnotationAdapter

    /// A source over the catalog at `catalogFile`.
    public init(catalogFile: URL, adapter: AnnotationAdapter = AnnotationAdapter()) {
        self.catalogFile = catalogFile
        self.adapter = adapter
    }

    /// The places of the imported photos.
    public func topPlaces() throws -> Listing<Place> {
        let places = try catalog().places()
        return Listing(entries: adapter.annotated(places), total: places.count)
    }

    /// One place of the imported photos.
    public func placeInfo(_ placeID: String) throws -> Place {
        guard let place = try catalog().place(placeID) else { throw FlickrError.unknownPlace(placeID) }
        return place
    }

    /// Up to `limit` photos of a place, newest first, told to `arriving` at once.
    public func photos(inPlace placeID: String, limit: Int,
                       arriving: (ArraySlice<AnnotatedPhoto>) -> Void) throws -> Listing<Photo> {
        let catalog = try catalog()
        let (photos, total) = try catalog.photos(inPlace: placeID, limit: limit)
        guard total > 0 else { throw FlickrError.unknownPlace(placeID) }
        let entries = adapter.annotated(photos)
        if !entries.isEmpty { arriving(entries[...]) }
        return Listing(entries: entries, total: total)
    }

    private func catalog() throws -> LocalCatalog {
        guard FileManager.default.fileExists(atPath: catalogFile.path) else { throw ImportError.nothingImported }
        return try LocalCatalog(file: catalogFile, readOnly: true)
    }
}

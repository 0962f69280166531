import Foundation

/// Fills the local index: with the embedded catalog (every place, photo and landmark) once per
/// catalog version, and with whatever a command fetched.
public struct CatalogIndexer {
    let index: LocalIndex
    let adapter: AnnotationAdapter

    /// An indexer writing to `index`.
    public init(index: LocalIndex, adapter: AnnotationAdapter) {
        self.index = index
        self.adapter = adapter
    }

    /// Indexes the embedded catalog unless this version of it is indexed already.
    /// `landmarks` is asked for only when the catalog needs indexing (loading them costs time).
    public func ensureCatalog(_ source: FixtureSource, catalog: URL, landmarks: () throws -> [GazetteerEntry]) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: catalog.appendingPathComponent("top-places.json").path)
        let version = "\(catalog.path)@\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        guard try index.marker("catalog") != version else { return }
        let places = try source.topPlaces().items
        var records = places.map { IndexRecord.place($0, adapter: adapter) } + (try landmarks()).map(IndexRecord.landmark)
        for place in places {
            records += try source.photos(inPlace: place.id, limit: FixtureSource.maximumResults).items.map { IndexRecord.photo($0, adapter: adapter) }
        }
        // A different catalog than last time (another PHOTOMAP_FIXTURES, a new version): its records replace
        // the old catalog's, and what listings fetched stays.
        try index.remove(origin: "catalog")
        try index.add(records, origin: "catalog")
        try index.setMarker("catalog", version)
    }

    /// Indexes fetched records.
    public func add(places: [Place] = [], photos: [Photo] = []) throws {
        try index.add(places.map { IndexRecord.place($0, adapter: adapter) } + photos.map { IndexRecord.photo($0, adapter: adapter) })
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Fills the local index: with the embedded catalog (every place, photo and landmark) once per
/// catalog version, and with whatever a command fetched, each record shown by its listing's annotation.
public struct CatalogIndexer {
    let index: any SearchIndex
    /// Told what is about to take a while (the catalog indexed on a first run), before it starts.
    let announce: (String) -> Void

    /// An indexer writing to `index`, telling `announce` before a long build.
    public init(index: any SearchIndex, announce: @escaping (String) -> Void = { _ in }) {
        self.index = index
        self.announce = announce
    }

    /// Indexes the embedded catalog unless this version of it is indexed already.
    /// `landmarks` is asked for only when the catalog needs indexing (loading them costs time).
    public func ensureCatalog(_ source: FixtureSource, catalog: URL, landmarks: () throws -> [GazetteerEntry]) throws {
        let attributes = try? FileManager.default
            .attributesOfItem(atPath: catalog.appendingPathComponent("top-places.json").path)
        let version = "\(catalog.path)@\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        guard try index.marker("catalog") != version else { return }
        announce("building the search index from the embedded catalog (a few seconds, once)…")
        let places = try source.topPlaces().entries
        var records = places.map(IndexRecord.place) + (try landmarks()).map(IndexRecord.landmark)
        for place in places {
            records += try source.photos(
                inPlace: place.record.id,
                limit: FixtureSource.maximumResults
            ).entries.map(IndexRecord.photo)
        }
        // A different catalog than last time (another PHOTOMAP_FIXTURES, a new version): its records replace
        // the old catalog's, and what listings fetched stays.
        try index.remove(origin: "catalog")
        try index.add(records, origin: "catalog")
        try index.setMarker("catalog", version)
    }

    /// Indexes the imported photos unless this version of them is indexed already; their records replace
    /// the ones indexed before (photos pruned or changed since go).
    public func ensureLocal(_ catalog: any LocalCatalogStore, adapter: AnnotationAdapter = AnnotationAdapter()) throws {
        let version = String(try catalog.version())
        guard try index.marker("local") != version else { return }
        announce("indexing the imported photos for search…")
        try index.remove(origin: "local")
        try index.add(adapter.annotated(try catalog.allPhotos()).map(IndexRecord.photo), origin: "local")
        try index.setMarker("local", version)
    }

    /// Indexes the photos one change of the catalog touched (`changed`, as the catalog now holds them, and
    /// `mayBeGone`, photos it may have dropped) when the index held the catalog as it was just before (version
    /// `before`); else every photo, as `ensureLocal` does. A photo of either the catalog no longer shows
    /// everyone (dropped, made private) leaves the index by its id.
    public func ensureLocal(
        _ catalog: any LocalCatalogStore, changed: [Photo], mayBeGone: some Collection<String> = [String](),
        since before: Int, adapter: AnnotationAdapter = AnnotationAdapter()
    ) throws {
        let change = try Self.localChange(catalog, changed: changed, mayBeGone: mayBeGone, since: before)
        if try !apply(change, adapter: adapter) { try ensureLocal(catalog, adapter: adapter) }
    }

    /// What a change of the catalog means for the index, read from `catalog` as it stands after the change
    /// (see `ensureLocal(_:changed:mayBeGone:since:adapter:)`); `apply` writes it, on another thread if need
    /// be, as the catalog's next change is made.
    public static func localChange(
        _ catalog: any LocalCatalogStore, changed: [Photo], mayBeGone: some Collection<String> = [String](),
        since before: Int
    ) throws -> LocalIndexChange {
        let version = try catalog.version()
        guard version != before else { return LocalIndexChange(before: before, version: version, shown: [], gone: []) }
        // As `catalog` shows them (the public view): a fenced or non-public location, or a photo not
        // everyone may see, never enters the index.
        let touched = Array(Set(changed.map(\.id)).union(mayBeGone))
        let listed = try catalog.listed(ids: touched)
        let shown = changed.compactMap { photo in listed[photo.id].map { $0 ? Geofence.withoutLocation(photo) : photo }
        }
        return LocalIndexChange(
            before: before, version: version, shown: shown, gone: touched.filter { listed[$0] == nil })
    }

    /// Writes `change` when the index holds the catalog as it was just before it; false (nothing written)
    /// when it does not, and every photo must be indexed again (`ensureLocal`).
    public func apply(_ change: LocalIndexChange, adapter: AnnotationAdapter = AnnotationAdapter()) throws -> Bool {
        guard try index.marker("local") == String(change.before) else { return false }
        guard change.version != change.before else { return true }
        try index.remove(photos: change.gone, origin: "local")
        try index.add(adapter.annotated(change.shown).map(IndexRecord.photo), origin: "local")
        try index.setMarker("local", String(change.version))
        return true
    }

    /// Indexes fetched records.
    public func add(places: [AnnotatedPlace] = [], photos: [AnnotatedPhoto] = []) throws {
        try index.add(places.map(IndexRecord.place) + photos.map(IndexRecord.photo))
    }
}

/// One change of the local catalog as the index takes it (`CatalogIndexer.localChange`): the versions
/// before and after, the photos to index as everyone sees them, and the ids to drop.
public struct LocalIndexChange: Sendable {
    let before: Int, version: Int
    let shown: [Photo]
    let gone: [String]
}

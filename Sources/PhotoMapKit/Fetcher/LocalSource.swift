// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The photos `photomap import` read, as a photo source: places ranked by photo count (the photos
/// without a location last), a place's photos newest first. Read from the imported photos' catalog;
/// nothing here touches the photos' files.
public struct LocalSource: PhotoSource, PlaceDescribing, PhotoDescribing, ChangingSource {
    /// Opens the catalog for each call (nil: nothing imported).
    let catalog: @Sendable () throws -> (any LocalCatalogStore)?
    let adapter: AnnotationAdapter

    /// A source over the catalog `catalog` opens.
    public init(
        catalog: @escaping @Sendable () throws -> (any LocalCatalogStore)?,
        adapter: AnnotationAdapter = AnnotationAdapter()
    ) {
        self.catalog = catalog
        self.adapter = adapter
    }

    /// The places of the imported photos.
    public func topPlaces() throws -> Listing<Place> {
        let places = try opened().places()
        return Listing(entries: adapter.annotated(places), total: places.count)
    }

    /// One place of the imported photos.
    public func placeInfo(_ placeID: String) throws -> Place {
        guard let place = try opened().place(placeID) else { throw FlickrError.unknownLocalPlace(placeID) }
        return place
    }

    /// Up to `limit` photos of a place, newest first, told to `arriving` at once.
    public func photos(
        inPlace placeID: String, limit: Int,
        arriving: (ArraySlice<AnnotatedPhoto>) -> Void
    ) throws -> Listing<Photo> {
        let (photos, total) = try opened().photos(inPlace: placeID, limit: limit)
        guard total > 0 else { throw FlickrError.unknownLocalPlace(placeID) }
        let entries = adapter.annotated(photos)
        if !entries.isEmpty { arriving(entries[...]) }
        return Listing(entries: entries, total: total)
    }

    /// One imported photo, annotated; nil when there is no such photo.
    public func photoInfo(_ photoID: String) throws -> AnnotatedPhoto? {
        guard LocalPhotoID.isValid(photoID) else { return nil }
        return try opened().photo(id: photoID).map(adapter.annotated)
    }

    /// The catalog's version: it moves on with each import, geotag and geofence change.
    public func version() throws -> Int {
        try catalog()?.version() ?? 0
    }

    /// The catalog, or nil when nothing was imported.
    func catalogIfAny() throws -> (any LocalCatalogStore)? { try catalog() }

    func opened() throws -> any LocalCatalogStore {
        guard let store = try catalog() else { throw ImportError.nothingImported }
        return store
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Locations set or removed by hand (`photomap locate`): the same rows `geotag` writes, with the source
/// `manual`, which tracks, estimates and the import of an unchanged file leave as they are.
public enum ManualLocation {
    /// The photos of `catalog` with these ids, in their order (each once); throws
    /// `CorrectionError.unknownPhotos` naming every id the catalog does not hold.
    public static func photos(_ ids: [String], in catalog: any LocalCatalogStore) throws -> [Photo] {
        var photos: [Photo] = []
        var unknown: [String] = []
        var seen: Set<String> = []
        for id in ids where seen.insert(id).inserted {
            if let photo = try catalog.photo(id: id) { photos.append(photo) } else { unknown.append(id) }
        }
        guard unknown.isEmpty else { throw CorrectionError.unknownPhotos(unknown) }
        return photos
    }

    /// Every photo of a place (`LocalPlace.unlocatedID` for those without a location).
    public static func photos(inPlace id: String, of catalog: any LocalCatalogStore) throws -> [Photo] {
        let (photos, total) = try catalog.photos(inPlace: id, limit: Int(Int32.max))
        guard total > 0 || id == LocalPlace.unlocatedID else { throw CorrectionError.unknownPlace(id) }
        return photos
    }

    /// Where the photo `id` is, for `--like` and `"like"`; throws when the catalog does not hold it or it
    /// has no location.
    public static func location(of id: String, in catalog: any LocalCatalogStore) throws -> Coordinate {
        guard let coordinate = try photos([id], in: catalog).first?.coordinate else {
            throw CorrectionError.modelWithoutLocation(id)
        }
        return coordinate
    }

    /// Where `coordinate` (nil: no location) puts `photos`, each with its place; the photos already there
    /// by hand are left out (nothing to write).
    public static func located(
        _ photos: [Photo], at coordinate: Coordinate?, places: () throws -> LocalPlaces
    ) throws -> [LocatedPhoto] {
        let changing = photos.filter { $0.coordinate != coordinate || $0.locationSource != .manual }
        guard !changing.isEmpty else { return [] }
        let place = try coordinate.map { try places().place(for: $0) } ?? .unlocated
        return changing.map {
            LocatedPhoto(id: $0.id, coordinate: coordinate, place: place, source: .manual, estimateOffset: nil)
        }
    }

    /// What puts `photos` back as `before` holds them (their location, its source and an estimate's
    /// offset; the place named again from the location, as import names it); those already so are left out.
    public static func restored(
        _ before: [Photo], from photos: [Photo], places: () throws -> LocalPlaces
    ) throws -> [LocatedPhoto] {
        let now = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try before.compactMap { former in
            if let photo = now[former.id], photo.coordinate == former.coordinate,
                photo.locationSource == former.locationSource, photo.estimateOffset == former.estimateOffset
            {
                return nil
            }
            let place = try former.coordinate.map { try places().place(for: $0) } ?? .unlocated
            return LocatedPhoto(
                id: former.id, coordinate: former.coordinate, place: place, source: former.locationSource,
                estimateOffset: former.estimateOffset)
        }
    }

    /// Writes `located` into `catalog` (all or none), then into the sidecars `sidecars` keeps (each one that
    /// cannot be written is reported; the catalog keeps its change), then into the search index, which
    /// holds the public view: the one step `locate` and `serve`'s `POST /api/photos/locations` both take.
    /// Returns the photos changed, as the catalog now holds them, and what the sidecars came to.
    public static func write(
        _ located: [LocatedPhoto], into catalog: any LocalCatalogStore, sidecars: SidecarWriter?,
        index: () throws -> any SearchIndex, adapter: AnnotationAdapter
    ) throws -> (changed: [Photo], sidecars: SidecarWriter.Report?) {
        let before = try catalog.version()
        let changed = try catalog.locate(located)
        let report = try sidecars?.write(changed, of: catalog)
        // A store may be a class shared with the caller: its view is put back as it was.
        var shown = catalog
        let (fenced, audiences) = (shown.showsFenced, shown.audiences)
        shown.showsFenced = false
        shown.audiences = Audience.seen(by: nil)
        defer {
            shown.showsFenced = fenced
            shown.audiences = audiences
        }
        try CatalogIndexer(index: index()).ensureLocal(shown, changed: changed, since: before, adapter: adapter)
        return (changed, report)
    }

    /// The records `located` would make of `photos`, without writing them (`--dry-run`).
    public static func preview(_ located: [LocatedPhoto], of photos: [Photo]) -> [Photo] {
        let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return located.compactMap { entry in byID[entry.id].map(entry.applied) }
    }
}

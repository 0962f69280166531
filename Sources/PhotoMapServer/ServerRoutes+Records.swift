// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// The records `photomap serve` has listed, by id, and how it finds one it has not: what the pages,
/// the images and the search look up.
extension ServerRoutes {
    /// The records this server has listed, by id: what `/places/ID`, `/photos/ID` and the images
    /// look up.
    struct Known {
        var places: [String: AnnotatedPlace] = [:]
        var photos: [String: AnnotatedPhoto] = [:]
        var listings: [String: (photos: [AnnotatedPhoto], total: Int?)] = [:]
    }

    /// Forgets every record listed when a changing source's version moved on (an import, a geofence added:
    /// a fenced photo must not stay on a page), and reads the tracks again (a `geotag` with new ones);
    /// asked at most once a second, by the pages' slow work.
    func forgetIfSourceChanged() throws {
        guard let source = services.source as? any ChangingSource else { return }
        let now = Date()
        if let seen = sourceVersion.withLock({ $0 }), now.timeIntervalSince(seen.asked) < 1 { return }
        let version = try source.version()
        let previous = sourceVersion.withLock { seen in
            defer { seen = (version, now) }
            return seen?.version
        }
        guard let previous, previous != version else { return }
        known.withLock { $0 = Known() }
        topPlacesListed.forget()
        tripsFound.forget()
        if let readTracks = services.readTracks {
            let lines = try readTracks()
            tracks.withLock { $0 = lines }
        }
    }

    /// The top places, listed once per server (pages asking at once wait for that one listing).
    func topPlaces() throws -> [AnnotatedPlace] {
        try topPlacesListed.value {
            let places = try services.source.topPlaces().entries
            known.withLock { known in for place in places { known.places[place.record.id] = place } }
            return places
        }
    }

    /// The place with this id: among the top places (listed once per server), else as the source
    /// describes it (flickr.places.getInfo, which throws for a place that does not exist); nil when the
    /// source cannot describe places.
    func place(_ id: String) throws -> AnnotatedPlace? {
        if let place = known.withLock({ $0.places[id] })
            ?? ((try? topPlaces()) ?? []).first(where: { $0.record.id == id })
        {
            return place
        }
        guard let places = services.source as? any PlaceDescribing else { return nil }
        // Not kept: the source's answer cache keeps it, and ids from outside would grow the table.
        let place = try places.placeInfo(id)
        return Annotated(place, services.adapter.annotation(for: place))
    }

    /// A place's photos and how many the source holds, fetched through the source the first time they are
    /// asked for (at this limit).
    func listing(of placeID: String, limit: Int) throws -> (photos: [AnnotatedPhoto], total: Int?) {
        let key = "\(placeID)\n\(limit)"
        if let listed = known.withLock({ $0.listings[key] }) { return listed }
        let listing = try services.source.photos(inPlace: placeID, limit: limit)
        let listed = (photos: listing.entries, total: listing.total(askedFor: limit))
        known.withLock { known in
            // Full: one listing goes (asked again, it is fetched again); its photos stay known.
            if known.listings.count >= Self.maximumListings, let any = known.listings.keys.first {
                known.listings[any] = nil
            }
            known.listings[key] = listed
            for photo in listed.photos { known.photos[photo.record.id] = photo }
        }
        return listed
    }

    /// The photos recently viewed, annotated as they are read (they were kept as records).
    func recentPhotos() throws -> [AnnotatedPhoto] {
        services.adapter.annotated(try services.recents.photos())
    }

    /// A photo this server has not listed (a link shared or bookmarked): the local index's, else the
    /// source's own answer for it (flickr.photos.getInfo), now known here too; nil when neither has it.
    func lookedUpPhoto(_ id: String) throws -> AnnotatedPhoto? {
        // A signed-in viewer's imported photos are their catalog's, as they may see them.
        if LocalPhotoID.isValid(id), let catalog = services.viewCatalog { return try viewedPhoto(id, in: catalog) }
        if let indexed = try indexedPhoto(id) { return indexed }
        guard let source = services.source as? any PhotoDescribing, let entry = try source.photoInfo(id) else {
            return nil
        }
        known.withLock { $0.photos[id] = entry }
        return entry
    }

    /// A photo the local index holds (any server sharing it may have listed it), now known here too.
    func indexedPhoto(_ id: String) throws -> AnnotatedPhoto? {
        guard let indexed = try services.search.index.open().photo(id: id) else { return nil }
        // Kept as its source gave it: the catalog's images come from this server's mirror, as listed ones do.
        let photo = services.catalogMirror.map(indexed.rehosted(on:)) ?? indexed
        guard let entry = services.adapter.annotated([photo]).first else { return nil }
        known.withLock { $0.photos[id] = entry }
        return entry
    }
}

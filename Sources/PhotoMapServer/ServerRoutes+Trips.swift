// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `photomap serve`'s trips: `/trips`, the index, and `/trips/ID`, a trip's page, made by the same
/// `PageBuilder` as `export`'s, and `/visited`, the places you have been, with `/visited/ID`, a country's or
/// a region's photos; a source that finds no trips (Flickr, the fixtures) has none to show.
extension ServerRoutes {
    /// The trips, found once for each version of the source (`forgetIfSourceChanged` forgets them); nil
    /// for a source without trips.
    func tripAlbum() throws -> TripAlbum? {
        guard let source = services.source as? any TripDescribing else { return nil }
        return try tripsFound.value { try source.tripAlbum() }
    }

    func tripsPage() throws -> ServerResponse {
        try forgetIfSourceChanged()
        guard let album = try tripAlbum() else { return noTrips() }
        return page(try pages.tripsIndexPage(album, at: pages.links.tripsIndex, back: ("/", "Top places")))
    }

    func tripPage(_ id: String) throws -> ServerResponse {
        try forgetIfSourceChanged()
        guard let album = try tripAlbum() else { return noTrips() }
        guard let trip = album.trip(id) else {
            return errorPage(404, "There is no trip that begins on that day; the trips are at /trips.")
        }
        let photos = album.photos(of: trip)
        known.withLock { known in for photo in photos { known.photos[photo.record.id] = photo } }
        return page(try pages.tripPage(trip, album: album, at: pages.links.tripPage(id), back: ("/trips", "Trips")))
    }

    /// `/visited`: the countries, regions and towns of the photos the viewer sees, read at each request,
    /// their covers among the viewer's photos (the album's).
    func visitedPage() throws -> ServerResponse {
        try forgetIfSourceChanged()
        guard let source = services.source as? any TripDescribing, let album = try tripAlbum() else {
            return noTrips()
        }
        return page(
            try pages.visitedPage(
                try source.visitedPlaces(), outlines: VisitedOutlines.bundled, shown: album.shown, at: "/visited",
                back: ("/", "Top places")))
    }

    /// `/visited/ID?limit=N`: the photos of the country or region whose page `id` is
    /// (`VisitedPlace.pageID`) among the viewer's places, the newest `limit` (100 unless asked) as a place
    /// page lists them, with "Show N more". An id of another shape answers as one of a place the viewer has
    /// no photo of, before anything is read.
    func visitedPlacePage(_ id: String, limit text: String?) -> HTTPServer.Reply {
        guard let limit = text.map({ Int($0) }) ?? 100, (1...Self.maximumLimit).contains(limit) else {
            return .now(errorPage(400, "limit must be a whole number from 1 to \(Self.maximumLimit)."))
        }
        guard VisitedPlace.isPageID(id) else { return .now(noVisitedPlace()) }
        return later(failing: "The place's photos could not be listed") { [self] in
            try forgetIfSourceChanged()
            guard let source = services.source as? any TripDescribing, let album = try tripAlbum() else {
                return noTrips()
            }
            guard let (place, country) = VisitedPlace.page(id, in: try source.visitedPlaces()) else {
                return noVisitedPlace()
            }
            let all = place.photoIDs.compactMap { album.shown[$0] }
            let photos = Array(all.prefix(limit))
            known.withLock { known in for photo in photos { known.photos[photo.record.id] = photo } }
            let path = pages.links.visitedPage(id)
            return page(
                try pages.listPage(
                    at: path, title: place.name,
                    subtitle: PageSubtitle.photos(
                        shown: photos.count, total: all.count,
                        detail: PageBuilder<ServedLinks>.visitedDetail(of: place, country: country)),
                    features: try pages.features(of: photos, on: path), back: ("/visited", "Places visited"),
                    more: Self.more(path: path, shown: photos.count, total: all.count), defaultView: "map"))
        }
    }

    private func noVisitedPlace() -> ServerResponse {
        errorPage(404, "There is no such country or region among the places you have been; they are at /visited.")
    }

    private func noTrips() -> ServerResponse {
        errorPage(404, "Trips are found in the photos you imported: serve them with `photomap --source local serve`.")
    }
}

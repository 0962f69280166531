import Foundation

/// `photomap serve`'s trips: `/trips`, the index, and `/trips/ID`, a trip's page, made by the same
/// `PageBuilder` as `export`'s, and `/visited`, the places you have been; a source that finds no trips
/// (Flickr, the fixtures) has none to show.
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

    private func noTrips() -> ServerResponse {
        errorPage(404, "Trips are found in the photos you imported: serve them with `photomap --source local serve`.")
    }
}

import Foundation

extension LocalSource: TripDescribing {
    /// The imported photos' trips, found as `trips` finds them with its defaults (home the centre of a
    /// fence named home, else the town of most days), their routes from the kept tracks; shown as the
    /// viewer's listing (`allPhotos`, the query every other page's photos come from) holds their photos.
    public func tripAlbum() throws -> TripAlbum {
        var owner = try opened()
        owner.showsFenced = true
        let photos = try owner.tripPhotos()
        let fences = try owner.fences()
        let home =
            fences.first { $0.name == "home" }.map { Home.at($0.centre, photos: photos, reach: 50) }
            ?? Home.mostDays(photos)
        let viewer = try opened()
        // The viewer's photos: where the audiences' filter applies, as it does to every listing.
        let shown = Dictionary(
            adapter.annotated(try viewer.allPhotos()).map { ($0.record.id, $0) }, uniquingKeysWith: { a, _ in a })
        guard let home else { return TripAlbum(trips: [], home: nil, fences: fences, shown: shown) }
        let trips = TripRoutes.attach(try owner.keptTrackLines(), to: TripFinder(home: home).trips(photos))
        return TripAlbum(trips: trips, home: home.coordinate, fences: fences, shown: shown)
    }

    /// The places of the photos the viewer's catalog shows located: a fenced photo, or one whose location
    /// the viewer may not see, counts nowhere; one the viewer may not see at all is not read.
    public func visitedPlaces() throws -> [VisitedPlace] {
        VisitedPlace.tree(try opened().tripPhotos())
    }
}

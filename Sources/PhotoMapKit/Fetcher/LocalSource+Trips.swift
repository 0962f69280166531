// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension LocalSource: TripDescribing {
    /// The imported photos' trips, found as `trips` finds them with its defaults (home the centre of a
    /// fence named home, else the town of most days), shown as the viewer's listing (`allPhotos`, the
    /// query every other page's photos come from) holds their photos. The owner's are found in every
    /// photo, their routes from the kept tracks; anyone else's only in the photos they may see, their
    /// routes those photos' way: tracks are the owner's, and a trip's days, distance and countries must
    /// tell nothing of photos the viewer may not see.
    public func tripAlbum() throws -> TripAlbum {
        let viewer = try opened()
        let isOwner = viewer.audiences == Set(Audience.allCases)
        var owner = try opened()
        owner.showsFenced = true
        let photos = try (isOwner ? owner : viewer).tripPhotos()
        let fences = try owner.fences()
        let home =
            fences.first { $0.name == "home" }.map { Home.at($0.centre, photos: photos, reach: 50) }
            ?? Home.mostDays(photos)
        // The viewer's photos: where the audiences' filter applies, as it does to every listing.
        let shown = Dictionary(
            adapter.annotated(try viewer.allPhotos()).map { ($0.record.id, $0) }, uniquingKeysWith: { a, _ in a })
        guard let home else { return TripAlbum(trips: [], home: nil, fences: fences, shown: shown) }
        let found = TripFinder(home: home).trips(photos)
        let trips = isOwner ? TripRoutes.attach(try owner.keptTrackLines(), to: found) : found
        return TripAlbum(trips: trips, home: home.coordinate, fences: fences, shown: shown)
    }

    /// The places of the photos the viewer's catalog shows located: a fenced photo, or one whose location
    /// the viewer may not see, counts nowhere; one the viewer may not see at all is not read.
    public func visitedPlaces() throws -> [VisitedPlace] {
        VisitedPlace.tree(try opened().tripPhotos())
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SiteBuilder {
    /// The trip page (a site path) and name of each photo of `album`'s trips, for `tripLinks`.
    public func tripLinks(of album: TripAlbum) -> [String: (path: String, label: String)] {
        var links: [String: (path: String, label: String)] = [:]
        for trip in album.trips {
            for photo in album.photos(of: trip) {
                links[photo.record.id] = (self.links.tripPage(trip.id), "Trip: \(trip.name)")
            }
        }
        return links
    }

    /// Writes the page of each of `album`'s trips under `trips/`, then their index at `index` (default
    /// `trips/index.html`), going back to `back`; with `photoPages`, each trip photo's page too (a
    /// `trips --map` page has no others), placing the images first. Returns the index's path.
    @discardableResult
    public func writeTrips(
        _ album: TripAlbum, index: String? = nil, back: (path: String, label: String)?, photoPages: Bool
    ) throws -> String {
        let indexPath = index ?? links.tripsIndex
        for trip in album.trips {
            let path = links.tripPage(trip.id)
            let photos = album.photos(of: trip)
            try placeImages(of: photos.map(\.record))
            if photoPages {
                for photo in photos {
                    try writer.write(
                        try pages.photoPage(
                            photo, at: links.photoPage(photo.record), back: (path, trip.name),
                            trip: (path, "Trip: \(trip.name)")), to: links.photoPage(photo.record))
                }
            }
            try writer.write(try pages.tripPage(trip, album: album, at: path, back: (indexPath, "Trips")), to: path)
        }
        try writer.write(try pages.tripsIndexPage(album, at: indexPath, back: back), to: indexPath)
        return indexPath
    }
}

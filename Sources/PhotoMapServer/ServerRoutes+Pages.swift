// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap serve`'s pages: the top places, a place's photos, a photo and the recently viewed, made by
/// the same `PageBuilder` as `export`'s.
extension ServerRoutes {
    func topPlacesPage() throws -> ServerResponse {
        try forgetIfSourceChanged()
        let places = try topPlaces()
        let features = pages.features(of: places, on: "/") { pages.links.placePage($0) }
        return page(
            try pages.listPage(
                at: "/", title: "Top places",
                subtitle: Quantity.words(places.count, "place", "places"),
                features: features, back: nil, elsewhere: ("/recent", "Recently viewed"),
                defaultView: "list"))
    }

    func placePage(_ id: String, limit text: String?) -> HTTPServer.Reply {
        // Checked here, not by the source: an id of another shape would go to Flickr as it is.
        guard FlickrID.isPlaceID(id) else { return .now(errorPage(400, "Not a place id: \(FlickrID.placeIDRule).")) }
        guard let limit = text.map({ Int($0) }) ?? 100, (1...Self.maximumLimit).contains(limit) else {
            return .now(errorPage(400, "limit must be a whole number from 1 to \(Self.maximumLimit)."))
        }
        return later(failing: "The place's photos could not be listed") { [self] in
            let place: Annotation?, photos: [AnnotatedPhoto], total: Int?
            try forgetIfSourceChanged()
            do {
                place = try self.place(id)?.annotation
                (photos, total) = try listing(of: id, limit: limit)
            } catch let error as FlickrError where error.isUnknownPlace {
                return errorPage(404, "There is no place with that id; the top places are on the first page.")
            }
            let title = place?.title ?? "Photos of \(id)"
            let path = "/places/" + ServedLinks.segment(id)
            return page(
                try pages.listPage(
                    at: path, title: title,
                    subtitle: PageSubtitle.photos(shown: photos.count, total: total, detail: place?.subtitle),
                    features: try pages.features(of: photos, on: path),
                    back: ("/", "Top places"),
                    more: Self.more(path: path, shown: photos.count, total: total), defaultView: "map"))
        }
    }

    /// How many more photos "Show N more" asks for: a page of the list, one page of Flickr's listing.
    static let morePerClick = PageRenderer.listPageSize

    /// The link to a place page listing `morePerClick` more of its photos, when the source holds more than
    /// the `shown` and the server may list more (`maximumLimit`); nil otherwise.
    static func more(path: String, shown: Int, total: Int?) -> (path: String, label: String)? {
        guard let total else { return nil }
        let next = min(total, shown + morePerClick, maximumLimit)
        guard next > shown else { return nil }
        return ("\(path)?limit=\(next)", "Show \(next - shown) more")
    }

    func photoPage(_ id: String) throws -> ServerResponse {
        try forgetIfSourceChanged()
        guard
            let entry = try known.withLock({ $0.photos[id] }) ?? recentPhotos().first(where: { $0.record.id == id })
                ?? lookedUpPhoto(id)
        else {
            return errorPage(404, "There is no photo with that id.")
        }
        let photo = entry.record
        known.withLock { $0.photos[id] = entry }
        do {
            try services.recents.viewed(photo)
        } catch {
            services.log("could not remember photo \(photo.id) as viewed: \(error)")
        }
        let place = known.withLock { $0.places[photo.placeID] }
        let back =
            place.map { (pages.links.placePage($0.record), $0.annotation.title) }
            ?? ("/recent", "Recently viewed")
        let trip = try tripAlbum()?.trip(ofPhoto: id).map { (pages.links.tripPage($0.id), "Trip: \($0.name)") }
        return page(try pages.photoPage(entry, at: pages.links.photoPage(photo), back: back, trip: trip))
    }

    func recentPage() throws -> ServerResponse {
        try forgetIfSourceChanged()
        let photos = try recentPhotos()
        known.withLock { known in for photo in photos { known.photos[photo.record.id] = photo } }
        return page(
            try pages.listPage(
                at: "/recent", title: "Recently viewed",
                subtitle: Quantity.words(photos.count, "photo", "photos"),
                features: try pages.features(of: photos, on: "/recent"),
                back: ("/", "Top places"), defaultView: "list"))
    }
}

import Foundation

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
            let place: Annotation?, photos: [AnnotatedPhoto]
            try forgetIfSourceChanged()
            do {
                place = try self.place(id)?.annotation
                photos = try listing(of: id, limit: limit)
            } catch let error as FlickrError where error.isUnknownPlace {
                return errorPage(404, "There is no place with that id; the top places are on the first page.")
            }
            let title = place?.title ?? "Photos of \(id)"
            let path = "/places/" + ServedLinks.segment(id)
            let subtitle = Quantity.words(photos.count, "photo", "photos") + (place.map { " · \($0.subtitle)" } ?? "")
            return page(
                try pages.listPage(
                    at: path, title: title, subtitle: subtitle,
                    features: try pages.features(of: photos, on: path),
                    back: ("/", "Top places"), defaultView: "map"))
        }
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
        return page(try pages.photoPage(entry, at: pages.links.photoPage(photo), back: back))
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

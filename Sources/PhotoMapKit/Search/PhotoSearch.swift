// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Search as `search` and the served pages do it: every photo, place and landmark whose text holds
/// all the query's words within a radius, by relevance then distance. Offline, or on the embedded
/// catalog, the local index answers; with a photo searcher (Flickr online) Flickr's
/// flickr.photos.search does, its results kept within the radius and ranked as local ones are.
public struct PhotoSearch: Sendable {
    /// The local index.
    public let index: any SearchIndexStore
    private let online: (any PhotoSearching)?

    /// A search over the local index `index`, or over `online` when given.
    public init(index: any SearchIndexStore, online: (any PhotoSearching)?) {
        self.index = index
        self.online = online
    }

    /// Whether Flickr answers (and so the radius must stay under 32 km).
    public var isOnline: Bool { online != nil }

    /// Matches for `query` within `radius` km of `near` (anywhere without it), at most `limit`. Each
    /// call opens its own index handle, so searches may run in parallel.
    public func search(_ query: String, near: Coordinate?, radius: Double, limit: Int) throws -> [SearchHit] {
        guard let online else {
            return try index.open().search(query, near: near, radiusKilometres: radius, limit: limit)
        }
        // Flickr sorts by date posted unless asked otherwise.
        var criteria = ["text": query, "has_geo": "1", "sort": "relevance"]
        if let near {
            criteria.merge([
                "lat": String(near.latitude), "lon": String(near.longitude), "radius": String(radius),
                "radius_units": "km",
            ]) { $1 }
        }
        // The source keeps what it fetched in the local index, which ranks it below.
        return ranked(try online.searchPhotos(criteria, limit: limit).entries, query: query, near: near, radius: radius)
    }

    /// Flickr's results, shown by the annotations their listing came with, ranked as local ones are: only
    /// those within the radius of `near` (Flickr's answers were seen to hold photos thousands of kilometres
    /// out), by relevance over their title, description and tags, then distance; those the index's words
    /// do not find (Flickr matched them otherwise) come last, nearest first. An index that cannot rank
    /// leaves them all in that last order.
    func ranked(_ photos: [AnnotatedPhoto], query: String, near: Coordinate?, radius: Double) -> [SearchHit] {
        let within: [SearchHit] = photos.compactMap { photo in
            let annotation = photo.annotation
            guard let coordinate = annotation.coordinate else { return nil }
            let distance = near.map(coordinate.distance) ?? 0
            return distance <= radius || near == nil
                ? SearchHit(
                    annotation: annotation, relevance: 0,
                    distanceKilometres: distance) : nil
        }
        let byText =
            (try? index.open().search(
                query, near: near, radiusKilometres: radius,
                limit: within.count,
                photoIDs: within.map(\.annotation.id))) ?? []
        let found = Set(byText.map(\.annotation.id))
        return byText
            + within.filter { !found.contains($0.annotation.id) }
            .sorted { $0.distanceKilometres < $1.distanceKilometres }
    }
}

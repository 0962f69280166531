// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap serve`'s API for the pages' search box: `/api/find?q=…[&lat=…&lon=…]` (a place named
/// outright) and `/api/search?q=…[&lat=…&lon=…][&radius=…]` (photos and places around a point), as
/// GeoJSON.
extension ServerRoutes {
    /// The place, landmark or address `q` names, favouring one near `lat`, `lon` when given.
    func find(_ query: [String: String]) -> HTTPServer.Reply {
        guard let text = Self.queryText(query) else { return .now(apiError(400, "q must be 1 to 200 characters")) }
        let near: Coordinate?
        do {
            near = try Self.centre(query)
        } catch {
            return .now(areaError(error))
        }
        return later(failing: "The place could not be looked up", asJSON: true) { [self] in
            let results = try services.finder.find(text, near: near, limit: 1)
            // "exact": the query named the location outright, so the page centres on it rather than
            // searching photos for the query's words.
            return geoJSON(
                results.map { MapData.Feature($0.entry.annotation, thumbnail: nil, link: nil) },
                match: results.first.map { $0.isExact ? "exact" : "partial" })
        }
    }

    /// The photos, places and landmarks matching `q` within `radius` km of `lat`, `lon`.
    func searchAround(_ query: [String: String]) -> HTTPServer.Reply {
        guard let text = Self.queryText(query) else { return .now(apiError(400, "q must be 1 to 200 characters")) }
        let near: Coordinate?, radius: Double
        do {
            near = try Self.centre(query)
            radius = try SearchArea.radius(query["radius"], online: services.search.isOnline)
        } catch {
            return .now(areaError(error))
        }
        return later(failing: "The search failed", asJSON: true) { [self] in
            let hits = try viewed(
                try services.search.search(text, near: near, radius: radius, limit: Self.maximumResults),
                query: text, near: near, radius: radius, limit: Self.maximumResults)
            let annotations = hits.map(\.annotation)
            // Photos found become records of this server, so their squares and pages answer.
            known.withLock { known in
                for annotation in annotations where annotation.kind == .photo && known.photos[annotation.id] == nil {
                    known.photos[annotation.id] = Annotated(pages.photo(of: annotation), annotation)
                }
            }
            return geoJSON(try pages.features(of: annotations, on: "/api/search"))
        }
    }

    /// The query's words, trimmed: 1 to 200 characters, or nil.
    static func queryText(_ query: [String: String]) -> String? {
        guard let text = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines), (1...200).contains(text.count)
        else { return nil }
        return text
    }

    /// The centre `lat` and `lon` give (both or neither), by `SearchArea`'s rule: the one the CLI's
    /// `search --near` follows.
    static func centre(_ query: [String: String]) throws(SearchAreaError) -> Coordinate? {
        try SearchArea.centre(latitude: query["lat"], longitude: query["lon"])
    }

    /// 400 for a centre or radius out of range, naming the parameter as the query does, what it may be and
    /// what was given.
    func areaError(_ error: SearchAreaError) -> ServerResponse {
        let names: [SearchAreaError.Field: String] = [.latitude: "lat", .longitude: "lon", .radius: "radius"]
        let given = error.value.isEmpty ? "missing" : "not '\(error.value)'"
        return apiError(400, "\(names[error.field] ?? error.field.rawValue) must be \(error.allowed), \(given)")
    }

    /// A GeoJSON FeatureCollection (RFC 7946), with `match` as a foreign member when given.
    func geoJSON(_ features: [MapData.Feature], match: String? = nil) -> ServerResponse {
        struct Collection: Encodable {
            let type = "FeatureCollection"
            let features: [MapData.Feature]
            let match: String?
        }
        let body = (try? JSONOutput.data(Collection(features: features, match: match))) ?? Data()
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders + [
                ("Content-Type", "application/geo+json"),
                ("Cache-Control", "private, no-store"),
            ],
            body: .bytes(body))
    }

    /// An error as the API's JSON: `{"error": message}`.
    func apiError(
        _ status: Int, _ message: String, headers: [(name: String, value: String)] = []
    ) -> ServerResponse {
        let body = (try? JSONOutput.data(["error": message])) ?? Data()
        return ServerResponse(
            status: status, headers: Self.commonHeaders + [("Content-Type", "application/json")] + headers,
            body: .bytes(body))
    }
}

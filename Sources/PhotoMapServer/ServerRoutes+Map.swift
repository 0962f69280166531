// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// The map of everything's tiles: `/api/map/Z/X/Y.json[?from=YYYY-MM&to=YYYY-MM]`, the clusters of the
/// photos in a Web-Mercator tile as the database keeps them (`MapTiling`).
extension ServerRoutes {
    /// The rule for a tile's path, as a 400 says it.
    static let mapTileRule = "a tile is /api/map/Z/X/Y.json with Z 0 to \(MapTile.maximumZoom) and X, Y 0 to 2^Z − 1"

    /// A tile's clusters, tagged with the catalog's version (`ETag`): a browser asks again with it, and
    /// is told 304 until an import, a geotag or a fence changes the photos.
    func mapTile(_ path: String, request: ServerRequest) -> HTTPServer.Reply {
        guard let tile = MapTile(path: path) else { return .now(apiError(400, "Not a map tile: \(Self.mapTileRule)")) }
        let months: MonthRange
        switch Self.months(request.query) {
        case .success(let range): months = range
        case .failure(let message): return .now(apiError(400, message.text))
        }
        guard let tiling = services.source as? any MapTiling else {
            return .now(apiError(404, "The map of everything shows imported photos: serve them with --source local"))
        }
        return later(failing: "The map tile could not be made", asJSON: true) { [self] in
            let version = try (services.source as? any ChangingSource)?.version() ?? 0
            // The view's name in it: a tile a browser kept for one view (before signing in) is never
            // taken for another's.
            let tag = "\"map-\(viewName)-\(version)\""
            // Each view's own: never kept by a shared cache.
            let headers = Self.commonHeaders + [("ETag", tag), ("Cache-Control", "private, no-cache")]
            if request.headers["if-none-match"]?.split(separator: ",")
                .contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) == true
            {
                return ServerResponse(status: 304, headers: headers)
            }
            struct Tile: Encodable { let clusters: [MapCluster] }
            let body = try JSONOutput.data(Tile(clusters: try tiling.mapClusters(in: tile, months: months)))
            return ServerResponse(
                status: 200, headers: headers + [("Content-Type", "application/json")], body: .bytes(body))
        }
    }

    /// A 400's message.
    struct QueryProblem: Error { let text: String }

    /// The months `from` and `to` (`YYYY-MM`, each optional) name, or what is wrong with them.
    static func months(_ query: [String: String]) -> Result<MonthRange, QueryProblem> {
        var ends: [String: Int] = [:]
        for name in ["from", "to"] {
            guard let text = query[name] else { continue }
            guard let month = MonthRange.month(text) else {
                return .failure(QueryProblem(text: "\(name) must be a month as YYYY-MM, not '\(text.prefix(20))'"))
            }
            ends[name] = month
        }
        guard let range = MonthRange(from: ends["from"], to: ends["to"]) else {
            return .failure(QueryProblem(text: "from must not be after to"))
        }
        return .success(range)
    }
}

extension ServerRoutes {
    /// `/map`: every photo others may see, at the whole world, its clusters asked of `/api/map` a tile at
    /// a time, over the timeline's range.
    func worldMapPage() throws -> ServerResponse {
        try forgetIfSourceChanged()
        guard let tiling = services.source as? any MapTiling else {
            return errorPage(404, "The map of everything shows imported photos: serve them with --source local.")
        }
        let months = try tiling.mapMonths()
        let dated = stride(from: 1, to: months.count, by: 2).reduce(0) { $0 + months[$1] }
        return page(
            try pages.listPage(
                at: "/map", title: "Map of everything",
                subtitle: "Every photo with a location · " + Quantity.words(dated, "dated photo", "dated photos"),
                features: [], back: ("/", "Top places"), defaultView: "map",
                tiles: MapData.TileIndex(api: "/api/map", months: months)))
    }
}

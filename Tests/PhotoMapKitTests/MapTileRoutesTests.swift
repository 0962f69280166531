// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// `/api/map/Z/X/Y.json` as `serve` answers it: 400 for what is not a tile or a range, the clusters
/// with the catalog's version as their ETag, and 304 for a browser that has them.
@Suite("serve's map tiles: 400 for bad tiles and ranges, ETag from the catalog's version")
struct MapTileRoutesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Routes over a catalog of imported photos.
    func routes() throws -> ServerRoutes {
        var generator = WorldMapCatalog()
        let store = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        _ = try store.apply(WorldMapCatalog.changes(generator.photos(50)))
        let cacheFolder = folder.url
        let services = ServerRoutes.Services(
            source: LocalSource(catalog: { try LocalCatalog.existing(in: cacheFolder) }),
            cache: ThumbnailCache(cacheDirectory: folder.url, origin: FixtureImageOrigin(folder: folder.url)),
            assets: try PageAssets.locate(), adapter: AnnotationAdapter(), credits: PageCredits([]),
            catalogMirror: nil, finder: LocationFinder(gazetteer: { throw CocoaError(.fileNoSuchFile) }, places: nil),
            search: PhotoSearch(index: SQLiteIndexStore(cacheDirectory: folder.url), online: nil),
            recents: RecentPhotos(cacheDirectory: folder.url), log: { _ in })
        let routes = ServerRoutes(services: services)
        routes.allow(address: "127.0.0.1", port: 8080)
        return routes
    }

    func answer(_ routes: ServerRoutes, _ path: String, query: [String: String] = [:], tag: String? = nil)
        -> ServerResponse
    {
        var headers = ["host": "127.0.0.1:8080"]
        headers["if-none-match"] = tag
        return routes.answer(ServerRequest(method: "GET", path: path, headers: headers, query: query))
    }

    @Test("tiles and ranges out of bounds, not numbers, or malformed answer 400 with a reason")
    func badTiles() throws {
        let routes = try routes()
        for path in [
            "/api/map/23/0/0.json", "/api/map/2/4/0.json", "/api/map/2/0/4.json", "/api/map/-1/0/0.json",
            "/api/map/a/0/0.json", "/api/map/2/1.5/0.json", "/api/map/2/0/0", "/api/map/2/0.json",
            "/api/map/2/0/0/1.json", "/api/map/ 2/0/0.json", "/api/map/99999999999/0/0.json",
        ] {
            let response = answer(routes, path)
            #expect(response.status == 400, "\(path)")
        }
        for query in [
            ["from": "2020-13"], ["to": "2020-1"], ["from": "20-01"], ["from": "2020-02", "to": "2020-01"],
            ["from": "0000-05"], ["to": "2020-05-01"],
        ] {
            #expect(answer(routes, "/api/map/0/0/0.json", query: query).status == 400, "\(query)")
        }
        #expect(answer(routes, "/api/map/22/4194303/4194303.json").status == 200)
        #expect(answer(routes, "/api/map/1/1/1.json", query: ["from": "2005-01"]).status == 200)
    }

    @Test("a tile's clusters carry the catalog's version: 304 until the photos change")
    func etag() throws {
        let routes = try routes()
        let first = answer(routes, "/api/map/0/0/0.json")
        #expect(first.status == 200)
        let tag = try #require(first.header("ETag"))
        #expect(first.header("Cache-Control") == "private, no-cache")
        guard case let .bytes(body) = first.body else {
            Issue.record("no body")
            return
        }
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])
        #expect(json["clusters"]?.compactMap { $0["count"] as? Int }.reduce(0, +) == 50)
        #expect(answer(routes, "/api/map/0/0/0.json", tag: tag).status == 304)
        let store = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        try store.add(
            Geofence(name: "somewhere", centre: try #require(Coordinate(latitude: 1, longitude: 1)), radius: 50))
        // The version is asked at most once a second by the pages; tiles ask it each time.
        let after = answer(routes, "/api/map/0/0/0.json", tag: tag)
        #expect(after.status == 200 && after.header("ETag") != tag)
        #expect(answer(routes, "/map").status == 200)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// `ServerRoutes.handle` over the embedded catalog, request in, answer out, no socket: the public
/// view's pages, API, assets and the answers it refuses with (400, 403, 404, 405, 421, 502).
@Suite("ServerRoutes.handle: a request in, an answer out")
struct ServerRoutesTests {
    let folder: TemporaryFolder
    static let host = "127.0.0.1:8080"
    /// A place of the catalog (Paris) and a photo among its first listed.
    static let paris = "hS4wMLD0wPIXPXB"
    static let louvre = "38207384032"

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Routes over the embedded catalog, finding places in `gazetteer`, telling `log` what fails.
    func routes(
        gazetteer: @escaping @Sendable () throws -> any GazetteerLookup = { GeocoderTests.parsed },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> ServerRoutes {
        try embeddedCatalogRoutes(in: folder.url, gazetteer: gazetteer, log: log)
    }

    func request(
        _ path: String, method: String = "GET", query: [String: String] = [:], headers: [String: String] = [:]
    ) -> ServerRequest {
        ServerRequest(
            method: method, path: path, headers: ["host": Self.host].merging(headers) { _, given in given },
            query: query)
    }

    func body(_ response: ServerResponse) -> String {
        guard case let .bytes(data) = response.body else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The header fields as "name: value" lines, in order.
    func fields(_ response: ServerResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    /// Whether `response` carries the header fields of a page (or an error page) of the server.
    func isPage(_ response: ServerResponse) -> Bool {
        response.header("Content-Type") == "text/html; charset=utf-8"
            && response.header("Cache-Control") == "private, no-cache"
            && response.header("X-Content-Type-Options") == "nosniff"
            && response.header("Referrer-Policy") == "same-origin"
            && response.header("Content-Security-Policy")?.hasSuffix("; frame-ancestors 'none'") == true
    }

    @Test("the top places: a page with its header fields, linking each place; HEAD answers as GET does")
    func topPlaces() throws {
        let routes = try routes()
        let page: ServerResponse = routes.answer(request("/"))
        #expect(page.status == 200)
        #expect(isPage(page), "\(fields(page))")
        let html = body(page)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>Top places"))
        #expect(html.contains("/places/\(Self.paris)"))
        // MHD leaves the body out of a HEAD's answer; everything else is the GET's.
        let head: ServerResponse = routes.answer(request("/", method: "HEAD"))
        #expect(head.status == 200 && fields(head) == fields(page) && body(head) == html)
    }

    @Test("a place's photos, as many as asked; a limit or id out of bounds is 400 before any listing")
    func placePage() throws {
        let routes = try routes()
        let page: ServerResponse = routes.answer(request("/places/\(Self.paris)", query: ["limit": "5"]))
        #expect(page.status == 200 && isPage(page))
        #expect(body(page).contains("/photos/\(Self.louvre)"))
        #expect(body(page).contains("Show 100 more"), "214 held, 5 shown: the next click asks for 105")
        for limit in ["0", "-1", "abc", "", String(ServerRoutes.maximumLimit + 1)] {
            let refused: ServerResponse = routes.answer(request("/places/\(Self.paris)", query: ["limit": limit]))
            #expect(refused.status == 400 && isPage(refused), "limit '\(limit)'")
            #expect(body(refused).contains("limit must be a whole number from 1 to \(ServerRoutes.maximumLimit)."))
        }
        let hostile: ServerResponse = routes.answer(request("/places/<script>alert(1)</script>"))
        #expect(hostile.status == 400 && !body(hostile).contains("<script>"), "the id is not echoed")
    }

    @Test("a photo's page is remembered as viewed, most recent first; a bad id is 400, an unknown one 404")
    func photoPage() throws {
        let routes = try routes()
        // Listed first, so the server knows the photos.
        let listed: ServerResponse = routes.answer(request("/places/\(Self.paris)", query: ["limit": "5"]))
        #expect(listed.status == 200)
        let page: ServerResponse = routes.answer(request("/photos/\(Self.louvre)"))
        #expect(page.status == 200 && isPage(page))
        #expect(body(page).contains("Louvre"))
        #expect(body(page).contains("href=\"/places/\(Self.paris)\""), "back to the place it was listed in")
        let second = "48926469851"
        #expect((routes.answer(request("/photos/\(second)")) as ServerResponse).status == 200)
        let recents = try RecentPhotos(cacheDirectory: folder.url).photos().map(\.id)
        #expect(recents == [second, Self.louvre])
        let recent: ServerResponse = routes.answer(request("/recent"))
        #expect(recent.status == 200 && body(recent).contains("2 photos"))

        let malformed: ServerResponse = routes.answer(request("/photos/not-a-photo"))
        #expect(malformed.status == 400 && body(malformed).contains("Not a photo id"))
        let unknown: ServerResponse = routes.answer(request("/photos/99999999999"))
        #expect(unknown.status == 404 && isPage(unknown) && body(unknown).contains("There is no photo with that id."))
    }

    @Test("the API: a place found as GeoJSON, favouring one near lat and lon; bad parameters are JSON 400s")
    func find() throws {
        let routes = try routes()
        let found: ServerResponse = routes.answer(request("/api/find", query: ["q": "Paris"]))
        #expect(found.status == 200)
        #expect(found.header("Content-Type") == "application/geo+json")
        #expect(found.header("Cache-Control") == "private, no-store")
        #expect(found.header("X-Content-Type-Options") == "nosniff")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body(found).utf8)) as? [String: Any])
        #expect(json["type"] as? String == "FeatureCollection" && json["match"] as? String == "exact")
        let features = try #require(json["features"] as? [[String: Any]])
        let point = try #require((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(features.count == 1 && abs(point[0] - 2.35) < 0.1 && abs(point[1] - 48.86) < 0.1, "Paris, France")
        let texas: ServerResponse = routes.answer(
            request("/api/find", query: ["q": "Paris", "lat": "33.66", "lon": "-95.55"]))
        let near = try #require(try JSONSerialization.jsonObject(with: Data(body(texas).utf8)) as? [String: Any])
        let nearPoint = try #require(
            ((near["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(nearPoint[0] + 95.55) < 0.5 && abs(nearPoint[1] - 33.66) < 0.5, "Paris, Texas")

        let refusals: [([String: String], String)] = [
            ([:], "q must be 1 to 200 characters"),
            (["q": "   "], "q must be 1 to 200 characters"),
            (["q": String(repeating: "a", count: 201)], "q must be 1 to 200 characters"),
            (["q": "Paris", "lat": "91", "lon": "0"], "lat must be"),
            (["q": "Paris", "lat": "10"], "lon must be"),
        ]
        for (query, error) in refusals {
            let refused: ServerResponse = routes.answer(request("/api/find", query: query))
            #expect(refused.status == 400 && refused.header("Content-Type") == "application/json", "\(query)")
            let message = try JSONSerialization.jsonObject(with: Data(body(refused).utf8)) as? [String: String]
            #expect(message?["error"]?.hasPrefix(error) == true, "\(query): \(body(refused))")
        }
    }

    @Test("a failure is logged as it is and answered in the routes' own words: no path reaches the browser")
    func failure() throws {
        let logged = Locked<[String]>([])
        let secret = "/home/someone/private/cities.tsv"
        let routes = try routes(
            gazetteer: { throw LocationError.gazetteerUnreadable(path: secret, reason: "Permission denied") },
            log: { line in logged.withLock { $0.append(line) } })
        let answer: ServerResponse = routes.answer(request("/api/find", query: ["q": "Paris"]))
        #expect(answer.status == 502 && answer.header("Content-Type") == "application/json")
        #expect(body(answer) == #"{"error":"The place could not be looked up; the server's log says why"}"#)
        #expect(logged.withLock { $0 }.contains { $0.contains(secret) })
    }

    @Test("assets: only PageAssets' files, sent as they are; anything else, a path out included, is 404")
    func assets() throws {
        let routes = try routes()
        let files = Dictionary(try PageAssets.locate().files.map { ($0.name, $0.source) }) { first, _ in first }
        for (path, name, type) in [
            ("/assets/photomap.css", "photomap.css", "text/css; charset=utf-8"),
            ("/assets/photomap.js", "photomap.js", "text/javascript; charset=utf-8"),
            ("/assets/images/layers.png", "images/layers.png", "image/png"),
            ("/favicon.ico", "favicon.svg", "image/svg+xml"),
        ] {
            let asset: ServerResponse = routes.answer(request(path))
            #expect(asset.status == 200 && asset.header("Content-Type") == type, "\(path)")
            #expect(asset.header("Cache-Control") == "public, max-age=3600")
            let size = try #require(try files[name].map { try FileManager.default.attributesOfItem(atPath: $0.path) })
            guard case let .open(_, bytes) = asset.body else {
                Issue.record("\(path): not sent from its file")
                continue
            }
            #expect(bytes == (size[.size] as? NSNumber)?.intValue, "\(path)")
        }
        for path in [
            "/assets/nope.js", "/assets/../Package.swift", "/assets/%2e%2e/Package.swift", "/assets/images",
            "/nothing", "/places", "/api/nothing",
        ] {
            let missing: ServerResponse = routes.answer(request(path))
            #expect(missing.status == 404 && isPage(missing), "\(path)")
        }
    }

    @Test("methods: GET and HEAD; a POST where nothing changes state, and any other method, is 405")
    func methods() throws {
        let routes = try routes()
        for (method, path) in [("PUT", "/"), ("DELETE", "/recent"), ("PATCH", "/photos/1"), ("POST", "/")] {
            let refused: ServerResponse = routes.answer(
                request(path, method: method, headers: ["origin": "http://\(Self.host)"]))
            #expect(refused.status == 405 && refused.header("Allow") == "GET, HEAD", "\(method) \(path)")
            #expect(isPage(refused) && body(refused).contains("Only GET and HEAD are answered here."))
        }
        // Without sign-in set up there is no /login to post to, nor a session to ask for.
        let login: ServerResponse = routes.answer(request("/login", method: "POST"))
        #expect(login.status == 405 && login.header("Allow") == "GET, HEAD")
        let session: ServerResponse = routes.answer(request("/api/session"))
        #expect(session.status == 404 && body(session) == #"{"error":"sign-in is not set up"}"#)
        let locations: ServerResponse = routes.answer(request(ServerRoutes.locationsPath))
        #expect(locations.status == 405 && locations.header("Allow") == "POST")
    }

    @Test("only requests naming this server (421) from its own pages (403) are answered")
    func hostsAndSites() throws {
        let routes = try routes()
        for host in ["evil.example", "evil.example:8080", "127.0.0.1:8081", "127.0.0.1.evil.example:8080", ""] {
            let refused: ServerResponse = routes.answer(request("/", headers: ["host": host]))
            #expect(refused.status == 421 && isPage(refused), "Host '\(host)'")
        }
        let none: ServerResponse = routes.answer(ServerRequest(method: "GET", path: "/"))
        #expect(none.status == 421)
        for host in ["LOCALHOST:8080", "[::1]:8080"] {
            #expect((routes.answer(request("/favicon.ico", headers: ["host": host])) as ServerResponse).status == 200)
        }
        let cross: ServerResponse = routes.answer(
            request("/api/find", query: ["q": "Paris"], headers: ["sec-fetch-site": "cross-site"]))
        #expect(cross.status == 403 && isPage(cross))
        let same: ServerResponse = routes.answer(request("/favicon.ico", headers: ["sec-fetch-site": "same-origin"]))
        #expect(same.status == 200)
    }

    @Test("ids of the wrong shape are 400 before any work; coast tiles are made, 404 out of the world")
    func shapes() throws {
        let routes = try routes()
        for trip in ["2024-1-01", "yesterday", "2024-01-01x", "2024-01-0x"] {
            let refused: ServerResponse = routes.answer(request("/trips/\(trip)"))
            #expect(refused.status == 400 && body(refused).contains("Not a trip id"), "\(trip)")
        }
        try #require(CoastTiles.bundled != nil, "Fixtures/basemap/coasts.bin is made by scripts")
        let tile: ServerResponse = routes.answer(request("/assets/coasts/0/0/0.js"))
        #expect(tile.status == 200 && tile.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(tile.header("Cache-Control") == "public, max-age=86400" && !body(tile).isEmpty)
        for path in [
            "/assets/coasts/1/2.js", "/assets/coasts/a/0/0.js", "/assets/coasts/1/0/0.json",
            "/assets/coasts/0/99999/0.js", "/assets/coasts/99/0/0.js",
        ] {
            #expect((routes.answer(request(path)) as ServerResponse).status == 404, "\(path)")
        }
    }
}

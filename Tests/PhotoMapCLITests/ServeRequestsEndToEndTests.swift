// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapNetworking
import PhotoMapTestSupport
import Testing

/// `photomap serve` tells a bad request from a failure: ids not shaped as Flickr's and search areas out
/// of range are the client's fault (400, saying why), a well-formed id nobody knows is 404, and only the
/// source failing is 502 (or 504) — with the embedded catalog and with Flickr's protocol alike.
@Suite("photomap serve, bad requests")
struct ServeRequestsEndToEndTests {
    let flickr = LoopbackServer.flickr
    let folder: TemporaryFolder
    let newYork = "LATOAYBHhITBWjUq5GkE"

    init() throws {
        folder = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: folder.url)
    }

    /// A server on the embedded catalog ("catalog"), or on the Flickr-protocol server under `scenario`.
    func serve(_ source: String, scenario: String = "") throws -> ServeProcess {
        let arguments =
            source == "catalog"
            ? ["--source", "fixtures"]
            : ["--source", "flickr", "--api-key", "test-key", "--endpoint", flickr.endpoint(scenario)]
        return try ServeProcess(arguments, environment: ["PHOTOMAP_CACHE": folder.url.path])
    }

    func body(_ answer: RawHTTP.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    /// Each query to `route` (`/api/find`, `/api/search`) is answered 400 with an `{"error": …}` that
    /// holds its `names`.
    func expectRefused(_ server: ServeProcess, _ route: String, _ cases: [(query: String, names: String)]) throws {
        for (query, names) in cases {
            let answer = try server.request("\(route)?\(query)")
            let message = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: String])?["error"] ?? ""
            #expect(answer.status == 400 && message.contains(names), "\(query): \(answer.status) \(body(answer))")
        }
    }

    @Test(
        "place ids: of another shape 400 (never sent to Flickr), well formed but unknown 404, known 200",
        arguments: ["catalog", "flickr"])
    func placeIDs(source: String) throws {
        let server = try serve(source)
        for path in [
            "/places/..%2F..%2F..%2Fetc%2Fpasswd", "/places/%zz", "/places/a%20b",
            "/places/" + String(repeating: "x", count: 33),
        ] {
            let answer = try server.request(path)
            #expect(answer.status == 400, "\(path): \(answer.status)")
            #expect(body(answer).contains("letters, digits"), "\(path): \(body(answer))")
        }
        let unknown = try server.request("/places/NOPE")
        #expect(unknown.status == 404, "\(body(unknown))")
        #expect(try server.request("/places/\(newYork)?limit=5").status == 200)
        if source == "flickr" {
            for id in ["../../../etc/passwd", "%zz", "a b"] {
                #expect(try flickr.requests(where: ("place_id", id)).isEmpty, "\(id) reached Flickr")
            }
        }
    }

    @Test("photo ids: of another shape 400, for pages and images; well formed but unknown 404")
    func photoIDs() throws {
        let server = try serve("catalog")
        for path in ["/photos/..%2F..%2Fetc%2Fpasswd", "/photos/12a", "/squares/nope", "/images/%zz"] {
            #expect(try server.request(path).status == 400, "\(path)")
        }
        #expect(try server.request("/photos/1").status == 404)
        #expect(try server.request("/squares/1").status == 404)
    }

    @Test("only a failing source is a 502: Flickr answering 503 to every try")
    func upstreamFailure() throws {
        let server = try serve("flickr", scenario: "status/503/serve-\(UUID().uuidString)/100")
        let answer = try server.request("/places/\(newYork)", timeout: 60)
        #expect(answer.status == 502, "\(answer.status)")
    }

    @Test(
        "/api/search: a centre or radius out of range is 400 naming the parameter and its range",
        arguments: ["catalog", "flickr"])
    func searchArea(source: String) throws {
        let server = try serve(source)
        let cases: [(query: String, names: String)] = [
            ("q=bridge&lat=abc&lon=-46.69&radius=5", "lat must be a number from -90 to 90, not 'abc'"),
            ("q=bridge&lat=95&lon=-46.69&radius=5", "lat must be a number from -90 to 90, not '95'"),
            ("q=bridge&lat=-23.5&lon=-181&radius=5", "lon must be a number from -180 to 180"),
            ("q=bridge&lat=-23.5&radius=5", "lon must be a number from -180 to 180, missing"),
            ("q=bridge&lat=nan&lon=1", "lat must be"),
            ("q=bridge&lat=1&lon=1&radius=0", "radius must be a number from 0.001"),
            ("q=bridge&lat=1&lon=1&radius=inf", "radius must be a number from 0.001"),
            ("q=bridge&lat=1&lon=1&radius=20001", "radius must be a number from 0.001"),
            ("q=&lat=1&lon=1", "q must be"),
        ]
        try expectRefused(server, "/api/search", cases)
        let online = try server.request("/api/search?q=bridge&lat=37.77&lon=-122.42&radius=40")
        #expect(online.status == (source == "flickr" ? 400 : 200), "radius 40: \(online.status)")
        if source == "flickr" { #expect(body(online).contains("under 32 km")) }
    }

    @Test("/api/find: a centre malformed or out of range is 400 naming the parameter and its range, as for /api/search")
    func findArea() throws {
        let server = try serve("catalog")
        let cases: [(query: String, names: String)] = [
            ("q=Paris&lat=abc&lon=2.35", "lat must be a number from -90 to 90, not 'abc'"),
            ("q=Paris&lat=95&lon=2.35", "lat must be a number from -90 to 90, not '95'"),
            ("q=Paris&lat=48.85&lon=-181", "lon must be a number from -180 to 180, not '-181'"),
            ("q=Paris&lat=48.85", "lon must be a number from -180 to 180, missing"),
            ("q=Paris&lon=2.35", "lat must be a number from -90 to 90, missing"),
            ("q=Paris&lat=nan&lon=2.35", "lat must be"),
            ("q=Paris&lat=48.85&lon=inf", "lon must be"),
            ("q=&lat=48.85&lon=2.35", "q must be"),
        ]
        try expectRefused(server, "/api/find", cases)
        for query in ["q=Paris&lat=48.85&lon=2.35", "q=Paris&lat=-90&lon=180", "q=Paris"] {
            #expect(try server.request("/api/find?\(query)").status == 200, "\(query)")
        }
    }

    @Test("/api/search answers the same bytes for the same data", arguments: ["catalog", "flickr"])
    func searchBytes(source: String) throws {
        let server = try serve(source)
        let path = "/api/search?q=bridge&lat=37.77&lon=-122.42&radius=20"
        let first = try server.request(path)
        #expect(first.status == 200)
        #expect(body(first).contains("\"features\":[{"))
        for _ in 0..<5 { #expect(try server.request(path).body == first.body) }
    }

    @Test("--listen takes a host name: on localhost it serves, answering to that name")
    func listenOnName() throws {
        let server = try ServeProcess(
            ["--source", "fixtures"], listen: "localhost:0", environment: ["PHOTOMAP_CACHE": folder.url.path])
        #expect(server.stderr.contains("serving http://localhost:\(server.port)/"), "\(server.stderr)")
        // curl resolves the name as the server did, and sends it as the Host.
        let answer = try HTTPClient(retryPolicy: .never).get("http://localhost:\(server.port)/assets/photomap.css")
        #expect(answer.status == 200)
    }
}

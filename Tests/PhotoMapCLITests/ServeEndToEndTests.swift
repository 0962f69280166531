// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapNetworking
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

/// `photomap serve`, run as a user runs it, against the catalog's images on a counting image server.
@Suite("photomap serve, end to end")
struct ServeEndToEndTests {
    let images = LoopbackServer.catalogImages
    let folder: TemporaryFolder
    // Each test browses a place of its own: the image server's counts are shared by the whole run.
    let newYork = "LATOAYBHhITBWjUq5GkE", london = "6BsR0Pfbopcwbrdfo", melbourne = "5DDk1vzsjPfESnE8okLu"
    let capeTown = "uX6tt0RtbOrIUaZ4t0", moscow = "fM7bekat3tQfza7OiZm"

    init() throws {
        folder = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: folder.url)
    }

    /// A server on the embedded catalog, its images from the image server under `scenario`.
    func serve(_ scenario: String = "ok", serveArguments: [String] = []) throws -> ServeProcess {
        try ServeProcess(
            ["--image-host", images.url("/\(scenario)")], serveArguments: serveArguments,
            environment: ["PHOTOMAP_CACHE": folder.url.path, "PHOTOMAP_CLUSTER_THRESHOLD": "1000000"])
    }

    /// The ids of the photos a place page lists, in order.
    func photoIDs(on page: RawHTTP.Answer) -> [String] {
        let html = String(decoding: page.body, as: UTF8.self)
        return html.components(separatedBy: "href=\"/photos/").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    func body(_ answer: RawHTTP.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    @Test(
        "pages from the same renderer as export, with its CSP; a callout's square fetched once when asked for, then from the cache"
    )
    func browse() throws {
        let server = try serve()
        let index = try server.request("/")
        #expect(index.status == 200 && index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(
            index.headers["x-content-type-options"] == "nosniff"
                && index.headers["referrer-policy"] == "same-origin")
        #expect(
            body(index).contains("href=\"/places/\(newYork)\"")
                && body(index).contains("id=\"photomap-annotations\""))
        let place = try server.request("/places/\(newYork)?limit=20")
        #expect(place.status == 200)
        let ids = photoIDs(on: place)
        #expect(ids.count == 20)
        // Nothing was fetched to make the page: squares come when the browser asks.
        let id = try #require(ids.first)
        #expect(body(place).contains("/squares/\(id)"))
        let counts =
            try JSONSerialization.jsonObject(with: try HTTPClient(retryPolicy: .never).get(images.url("/_counts")).body)
            as? [String: Int]
        #expect(counts?.keys.contains { $0.hasPrefix("/ok/") && $0.contains("/\(id)_") } != true)

        let square = try server.request("/squares/\(id)")
        #expect(
            square.status == 200 && square.headers["content-type"] == "image/png"
                && square.body.starts(with: [0x89, 0x50]))
        let etag = try #require(square.headers["etag"])
        #expect(square.headers["cache-control"]?.contains("max-age") == true)
        let again = try server.request("/squares/\(id)")
        #expect(again.body == square.body)
        #expect(try images.count(of: try upstreamPath(of: id)) == 1, "one upstream fetch for two answers")
        #expect(try server.request("/squares/\(id)", headers: ["If-None-Match": etag]).status == 304)
        let head = try server.request("/squares/\(id)", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(square.body.count))
        // The photo page: medium image on demand, link back to Flickr, no key or local path anywhere.
        let photo = try server.request("/photos/\(id)")
        #expect(
            photo.status == 200 && body(photo).contains("/images/\(id)")
                && body(photo).contains("https://www.flickr.com/photos/"))
        #expect(try server.request("/images/\(id)").status == 200)
        for answer in [index, place, photo] { #expect(!body(answer).contains(folder.url.path)) }
    }

    /// The upstream path the image server counts for a catalog photo's square, under `scenario`.
    func upstreamPath(of id: String, scenario: String = "ok") throws -> String {
        let counts =
            try JSONSerialization.jsonObject(with: try HTTPClient(retryPolicy: .never).get(images.url("/_counts")).body)
            as? [String: Int]
        return try #require(
            counts?.keys.first { $0.hasPrefix("/\(scenario)/") && $0.contains("/\(id)_") && $0.hasSuffix("_s.png") })
    }

    @Test("100 concurrent requests for one uncached square: one upstream fetch, 100 good answers")
    func coalescing() throws {
        // 100 connections from one address: past the 64 a client may hold.
        let server = try serve("slow", serveArguments: ["--max-client-connections", "128"])
        let ids = photoIDs(on: try server.request("/places/\(london)?limit=5"))
        let id = try #require(ids.last)
        let statuses = Locked<[Int]>([])
        let threads = (0..<100).map { _ in
            Thread {
                let status = (try? server.request("/squares/\(id)").status) ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        threads.forEach { $0.start() }
        while statuses.withLock({ $0.count }) < 100 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 })
        #expect(try images.count(of: try upstreamPath(of: id, scenario: "slow")) == 1)
    }

    @Test("a square that cannot be fetched answers the placeholder with an error status and one log line")
    func failedFetch() throws {
        let server = try serve("status404")
        let id = try #require(photoIDs(on: try server.request("/places/\(melbourne)?limit=3")).first)
        let answer = try server.request("/squares/\(id)")
        #expect(
            answer.status == 502 && answer.headers["content-type"] == "image/svg+xml"
                && body(answer).contains("<svg"))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(server.stderr.components(separatedBy: "no square for photo \(id)").count == 2, "\(server.stderr)")
    }

    @Test("--offline asks the image host nothing: serve answers a square not cached 404, --prefetch counts the skipped")
    func offlineImages() throws {
        // Paths of this test's own, so the image server's counts of them are this test's requests alone.
        let prefix = "/ok/offline-\(UUID().uuidString)"
        func requests() throws -> Int {
            let counts =
                try JSONSerialization.jsonObject(
                    with: try HTTPClient(retryPolicy: .never).get(images.url("/_counts")).body) as? [String: Int]
            return try #require(counts).filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +)
        }
        let environment = ["PHOTOMAP_CACHE": folder.url.path]
        let server = try ServeProcess(
            ["--offline", "--image-host", images.url(prefix)], environment: environment)
        let id = try #require(photoIDs(on: try server.request("/places/\(melbourne)?limit=3")).first)
        for path in ["/squares/\(id)", "/images/\(id)"] {
            let answer = try server.request(path)
            #expect(answer.status == 404 && answer.headers["content-type"] == "image/svg+xml", "\(path)")
        }
        server.stop()
        #expect(server.stderr.contains("is not in the cache, and --offline makes no request"), "\(server.stderr)")
        let prefetch = [
            "--image-host", images.url(prefix), "photos", "--place", melbourne, "--limit", "3", "--prefetch",
        ]
        let offline = try PhotomapBinary.run(["--offline"] + prefetch, environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(
            offline.stderr.contains(
                "photomap: warning: skipped 3 squares not in the cache: --offline makes no request"),
            "\(offline.stderr)")
        #expect(try requests() == 0)
        // Online, the same prefetch asks the host for each square (none is there: 404s, counted all the same).
        _ = try PhotomapBinary.run(prefetch, environment: environment)
        #expect(try requests() >= 3)
    }

    @Test(
        "on a full disk /api/search answers 503 saying so (SQLite's I/O error logged with ENOSPC), then 200 with room",
        .enabled(if: TinyDisk.canMount, "needs root to mount a tmpfs"))
    func searchOnFullDisk() throws {
        let disk = try TinyDisk(kilobytes: 48 << 10)
        let cache = disk.url.appendingPathComponent("cache")
        try PrebuiltIndexes.copy(into: cache)
        let server = try ServeProcess(environment: ["PHOTOMAP_CACHE": cache.path])
        // Every byte left taken: writes of a MB, then of a page, until the disk refuses.
        let filler = disk.url.appendingPathComponent("filler")
        let descriptor = open(filler.path, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor >= 0)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for size in [1 << 20, 4096] { while write(descriptor, zeros, size) > 0 {} }
        close(descriptor)
        let full = try server.request("/api/search?q=paris")
        #expect(full.status == 503 && full.headers["retry-after"] != nil, "\(full.status)")
        #expect(body(full).contains("the server's disk is full"), "\(body(full))")
        // Logged before the answer went; read from its pipe by a thread of this process.
        let logged = Date().addingTimeInterval(5)
        while !server.stderr.contains("No space left on device"), Date() < logged {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(server.stderr.contains("No space left on device"), "\(server.stderr)")
        try FileManager.default.removeItem(at: filler)
        #expect(try server.request("/api/search?q=paris").status == 200)
    }

    @Test("hostile requests get their errors: wrong Host, POST, traversal, unknown ids, huge headers, bad numbers")
    func hostile() throws {
        let server = try serve()
        #expect(try server.request("/", headers: ["Host": "evil.example:80"]).status == 421)
        #expect(try server.request("/", headers: ["Host": "127.0.0.1.evil.example:\(server.port)"]).status == 421)
        let post = try server.request("/", method: "POST", headers: ["Content-Length": "0"])
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
        for path in [
            "/photos/..%2F..%2F..%2Fetc%2Fpasswd", "/assets/../Package.swift", "/assets/%2E%2E/Package.swift",
            "/squares/nope",
            "/nothing", "/places/",
        ] {
            let answer = try server.request(path)
            // An id not shaped as Flickr's is the request's fault; a path that names nothing is not found.
            #expect(
                answer.status == (path.hasPrefix("/photos/") || path.hasPrefix("/squares/") ? 400 : 404),
                "\(path): \(answer.status)")
            #expect(!body(answer).contains("root:") && !body(answer).contains("swift-tools-version"))
        }
        #expect(try server.request("/places/\(newYork)?limit=0").status == 400)
        #expect(try server.request("/places/\(newYork)?limit=lots").status == 400)
        #expect(try server.request("/api/find?q=").status == 400)
        #expect(try server.request("/api/search?q=bridge&radius=-1").status == 400)
        // Another site's page may not make the browser ask here; this site's own pages may.
        #expect(try server.request("/places/\(newYork)", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try server.request("/api/find?q=Paris", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try server.request("/", headers: ["Sec-Fetch-Site": "same-origin"]).status == 200)
        let huge = try server.request("/", headers: ["X-Huge": String(repeating: "x", count: 100_000)])
        #expect([413, 431].contains(huge.status))
        #expect(try server.request("/").status == 200, "still serving")
    }

    @Test("the search box's API: a place named outright, and photos matching words around a point, as GeoJSON")
    func api() throws {
        let server = try serve()
        let found = try server.request("/api/find?q=Paris&lat=48.8&lon=2.3")
        #expect(found.status == 200 && found.headers["content-type"] == "application/geo+json")
        let place = try JSONSerialization.jsonObject(with: found.body) as? [String: Any]
        #expect(place?["match"] as? String == "exact")
        let features = try #require(place?["features"] as? [[String: Any]])
        #expect((features.first?["properties"] as? [String: Any])?["title"] as? String == "Paris")
        let partial =
            try JSONSerialization.jsonObject(with: try server.request("/api/find?q=bridg").body) as? [String: Any]
        #expect(partial?["match"] as? String != "exact")
        let search =
            try JSONSerialization.jsonObject(
                with: try server.request("/api/search?q=bridge&lat=37.77&lon=-122.42&radius=20").body)
            as? [String: Any]
        let hits = try #require(search?["features"] as? [[String: Any]])
        #expect(!hits.isEmpty)
        let photo = try #require(hits.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "photo" })
        let thumbnail = try #require((photo["properties"] as? [String: Any])?["thumbnail"] as? String)
        #expect(thumbnail.hasPrefix("/squares/"))
        #expect(try server.request(thumbnail).status == 200, "a search result's square answers too")
    }

    @Test("photo pages viewed are remembered, most recent first, and `photomap recent` lists them")
    func recents() throws {
        // Before any view, `recent` lists none and writes nothing.
        let none = try PhotomapBinary.run(["recent", "--json"], environment: ["PHOTOMAP_CACHE": folder.url.path])
        #expect(
            none.status == 0 && none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]",
            "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("recent.json").path))
        let server = try serve()
        let ids = photoIDs(on: try server.request("/places/\(capeTown)?limit=4"))
        for id in [ids[0], ids[1], ids[2], ids[0]] { #expect(try server.request("/photos/\(id)").status == 200) }
        let page = body(try server.request("/recent"))
        #expect(page.contains("/photos/\(ids[0])") && page.contains("/photos/\(ids[2])"))
        let listed = try PhotomapBinary.run(["recent", "--json"], environment: ["PHOTOMAP_CACHE": folder.url.path])
        #expect(listed.status == 0)
        let recent = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        #expect(recent?.compactMap { $0["id"] as? String } == [ids[0], ids[2], ids[1]])
    }

    @Test(
        "a photo page opened cold (a link shared) is looked up with flickr.photos.getInfo; 404 only when Flickr has no such photo"
    )
    func photoOpenedCold() throws {
        // An embedded catalog of one place and no photos: the local index holds none of Flickr's.
        let catalog = folder.url.appendingPathComponent("tiny-catalog")
        let photos = catalog.appendingPathComponent("photos/TINY")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data(
            #"{"places":{"total":1,"place":[{"place_id":"TINY","woeid":"1","latitude":1,"longitude":1,"_content":"Tiny, Nowhere","photo_count":0}]},"stat":"ok"}"#
                .utf8
        )
        .write(to: catalog.appendingPathComponent("top-places.json"))
        try Data(#"{"photos":{"page":1,"pages":1,"perpage":100,"total":0,"photo":[]},"stat":"ok"}"#.utf8)
            .write(to: photos.appendingPathComponent("page-1.json"))
        let flickr = LoopbackServer.flickr, key = "KEY-\(UUID().uuidString)"
        let server = try ServeProcess(
            ["--api-key", key, "--endpoint", flickr.endpoint(""), "--image-host", images.url("/ok")],
            environment: [
                "PHOTOMAP_CACHE": folder.url.appendingPathComponent("cold").path,
                "PHOTOMAP_FIXTURES": catalog.path,
            ])
        // Hallgrímskirkja, Reykjavík, as the catalog Flickr's test server answers from lists it.
        let page = try server.request("/photos/43201728095")
        #expect(page.status == 200, "\(server.stderr)")
        #expect(body(page).contains("<h1>Hallgrímskirkja</h1>") && body(page).contains("Ravi"))
        #expect(body(page).contains("https://www.flickr.com/photos/108249273@N00/43201728095"))
        let asked = try flickr.requests(where: ("api_key", key)).filter { $0["method"] == "flickr.photos.getInfo" }
        #expect(asked.map { $0["photo_id"] } == ["43201728095"])
        #expect(try server.request("/squares/43201728095").status != 404, "its square is known now")
        #expect(try server.request("/photos/99999999999").status == 404)
        #expect(try server.request("/recent").status == 200)
    }

    @Test(
        "SIGTERM stops it at once with status 0 and no temporary file; kill -9 mid-fetch leaves a cache that verifies clean"
    )
    func stopping() throws {
        let server = try serve("slow")
        let ids = photoIDs(on: try server.request("/places/\(moscow)?limit=40"))
        #expect(try server.request("/squares/\(ids[0])").status == 200)
        let stopped = server.stop()
        #expect(stopped.status == 0 && stopped.seconds < 5)
        #expect(server.stderr.contains("stopping"))

        let killed = try serve("slow")
        for id in ids.dropFirst() { Thread { _ = try? killed.request("/squares/\(id)") }.start() }
        Thread.sleep(forTimeInterval: 0.5)
        killed.stop(signal: SIGKILL)
        let verify = try PhotomapBinary.run(
            ["cache", "verify", "--json"],
            environment: ["PHOTOMAP_CACHE": folder.url.path])
        #expect(verify.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Int]
        #expect(report?["corrupt"] == 0)
        let leftovers =
            FileManager.default.enumerator(atPath: folder.url.path)?.compactMap { $0 as? String }
            .filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp-") } ?? []
        #expect(leftovers.isEmpty)
    }

    @Test("a SIGTERM sent the moment serve says where it listens stops it with status 0, every time")
    func stoppedAtOnce() throws {
        // The signal was caught only once Dispatch had registered it: sent at once, it killed serve (99 starts
        // in 100 here) or, a few ms later, was dropped and serve never stopped (1 in 40).
        for start in 0..<12 {
            let stopped = try serve().stop()
            #expect(stopped.status == 0 && stopped.seconds < 10, "start \(start): \(stopped)")
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

/// Two `photomap serve` instances on one PostgreSQL database behind nginx running deploy/nginx.conf,
/// against the Flickr-protocol server: what one fetched, the other lists and searches; what one
/// showed, the other's /recent holds; together they keep to one call budget; one dies, the other serves.
@Suite("A fleet: two serve instances, one database, nginx in front")
struct FleetEndToEndTests {
    let flickr = LoopbackServer.flickr
    let key = "KEY-\(UUID().uuidString)"
    let work: TemporaryFolder
    let newYork = "LATOAYBHhITBWjUq5GkE", paris = "hS4wMLD0wPIXPXB"

    init() throws {
        work = try TemporaryFolder()
    }

    /// An instance with the cache folder `cache` (its name, unless given), on `database`, answering the name
    /// users type for nginx.
    func instance(
        _ name: String, database: String, nginxPort: Int, online: Bool = true, cache folder: String? = nil,
        environment: [String: String] = [:]
    ) throws -> ServeProcess {
        let cache = work.url.appendingPathComponent(folder ?? name)
        if !FileManager.default.fileExists(atPath: cache.path) { try PrebuiltIndexes.copy(into: cache) }
        return try ServeProcess(
            [
                "--database", database, "--cache", cache.path, "--source", "flickr", "--api-key", key,
                "--endpoint", flickr.endpoint(),
            ] + (online ? [] : ["--offline"]),
            serveArguments: ["--public-host", "127.0.0.1:\(nginxPort)", "--max-client-connections", "1024"],
            environment: environment)
    }

    func body(_ answer: RawHTTP.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    func photoIDs(_ page: RawHTTP.Answer) -> [String] {
        body(page).components(separatedBy: "href=\"/photos/").dropFirst()
            .compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test(
        "a listing fetched through one is listed and searched offline through the other; views are shared; nginx caches images and survives kill -9"
    )
    func sharedState() throws {
        let database = try TestDatabase().url
        let port = try NginxProcess.freePort()
        let a = try instance("a", database: database, nginxPort: port)
        // The second makes no call at all: all it shows comes from the database, and the images from the
        // cache folder the first fills (--offline fetches none).
        let b = try instance("b", database: database, nginxPort: port, online: false, cache: "a")
        let nginx = try NginxProcess(upstreams: [a.port, b.port], port: port)

        #expect(try a.request("/").status == 200)
        let listed = try a.request("/places/\(newYork)?limit=20")
        #expect(listed.status == 200)
        let ids = photoIDs(listed)
        #expect(ids.count == 20)
        let offline = try b.request("/places/\(newYork)?limit=20")
        #expect(offline.status == 200 && photoIDs(offline) == ids, "the kept listing, shared")

        // Searched through the other, offline: the shared index holds what the first fetched.
        let listing = try PhotomapBinary.run([
            "--database", database, "--cache", work.url.appendingPathComponent("c").path,
            "--source", "flickr", "--endpoint", flickr.endpoint(), "--offline",
            "photos", "--place", newYork,
            "--limit", "20", "--json",
        ])
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]],
            "\(listing.stderr)")
        let located = try #require(
            records.first {
                ($0["latitude"] as? Double).map { $0 != 0 } == true
                    && !($0["title"] as? String ?? "").isEmpty
            })
        let word = try #require(
            (located["title"] as? String)?.split(whereSeparator: { !$0.isLetter }).first.map(String.init))
        let search = try b.request(
            "/api/search?q=\(word)&lat=\(located["latitude"] ?? 0)&lon=\(located["longitude"] ?? 0)&radius=1")
        #expect(
            search.status == 200 && body(search).contains("\"\(located["id"] as? String ?? "?")\""),
            "\(word): \(body(search))")

        // Viewed through one, in the other's /recent.
        #expect(try a.request("/photos/\(ids[3])").status == 200)
        #expect(body(try b.request("/recent")).contains("/photos/\(ids[3])"))

        // The squares the first fetches, the second (offline) answers from their shared cache folder.
        for id in ids.prefix(8) { #expect(try a.request("/squares/\(id)").status == 200) }
        // Through nginx: the name users type is answered, another is refused; a square goes upstream once.
        #expect(try nginx.request("/").status == 200)
        #expect(try nginx.request("/", host: "evil.example:\(port)").status == 421)
        let square = try nginx.request("/squares/\(ids[5])")
        #expect(square.status == 200 && square.headers["x-cache-status"] == "MISS")
        let again = try nginx.request("/squares/\(ids[5])")
        #expect(again.status == 200 && again.headers["x-cache-status"] == "HIT" && again.body == square.body)
        // Either instance shows any photo either listed: the page and its images.
        for id in ids.prefix(8) {
            #expect(try nginx.request("/photos/\(id)").status == 200)
            #expect(try nginx.request("/squares/\(id)").status == 200)
        }

        // One instance killed while requests come: every one is answered by the other.
        let statuses = Locked<[Int]>([])
        let group = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for round in 0..<15 {
                    if thread == 0 && round == 3 { a.stop(signal: SIGKILL) }
                    let status = (try? nginx.request("/places/\(newYork)?limit=20").status) ?? -1
                    statuses.withLock { $0.append(status) }
                }
            }
        }
        group.wait()
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 }, "\(statuses.withLock { $0 })")
    }

    @Test("with a budget of 120 calls an hour, two instances wanting six calls make two between them")
    func sharedBudget() throws {
        let database = try TestDatabase().url
        let port = try NginxProcess.freePort()
        let budget = ["PHOTOMAP_FLICKR_CALLS_PER_HOUR": "120"]
        let a = try instance("a", database: database, nginxPort: port, environment: budget)
        let b = try instance("b", database: database, nginxPort: port, environment: budget)
        let started = Date()
        // Each page wants a call; the bucket (two calls, then one every 31 s) makes the rest wait.
        let group = DispatchGroup()
        for (server, path) in [
            (a, "/"), (b, "/"), (a, "/places/\(newYork)"), (b, "/places/\(paris)"),
            (a, "/places/\(paris)?limit=7"), (b, "/places/\(newYork)?limit=9"),
        ] {
            DispatchQueue.global().async(group: group) { _ = try? server.request(path, timeout: 4) }
        }
        _ = group.wait(timeout: .now() + 6)
        let calls = try flickr.requests(where: ("api_key", key)).count
        let elapsed = Date().timeIntervalSince(started)
        #expect(calls <= 2 + Int(elapsed * 118 / 3_600), "\(calls) calls in \(elapsed) s")
        #expect(calls >= 1)
    }
}

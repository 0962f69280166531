// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

private func json(_ result: PhotomapBinary.Result) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
}

@Suite("find and search, end to end")
struct LocationEndToEndTests {
    let server = LoopbackServer.flickr
    let key = "KEY-\(UUID().uuidString)"
    let work: TemporaryFolder

    init() throws {
        work = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: work.url.appendingPathComponent("cache"))
    }

    var environment: [String: String] { ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path] }

    @Test("find: the landmark, with its coordinate as subtitle")
    func findLandmark() throws {
        let result = try PhotomapBinary.run(["find", "Radio City Music Hall", "--json"], environment: environment)
        #expect(result.status == 0)
        let first = try #require(try json(result).first)
        #expect(first["title"] as? String == "Radio City Music Hall")
        #expect(first["subtitle"] as? String == "Lat:40.759976 Lon:-73.979977")
        #expect(first["kind"] as? String == "location")
    }

    @Test("find with --near picks Paris, Texas; nothing found is exit 1")
    func findNear() throws {
        let texas = try PhotomapBinary.run(["find", "Paris", "--near", "33.66,-95.55"], environment: environment)
        #expect(texas.stdout.split(separator: "\n")[1].contains("Texas"))
        // (0, 0) is a point like any other (only Flickr's answers use it for "no geo").
        let gulf = try PhotomapBinary.run(["find", "Lagos", "--near", "0,0"], environment: environment)
        let nearest = gulf.stdout.split(separator: "\n").dropFirst().first ?? ""
        #expect(gulf.status == 0 && nearest.contains("Nigeria") && nearest.hasSuffix(" 810.5"), "\(gulf.stdout)")
        let none = try PhotomapBinary.run(["find", "qqxyzzy"], environment: environment)
        #expect(none.status == 1)
        #expect(none.stderr == "photomap: error: no location found for \"qqxyzzy\"\n")
        let help = try PhotomapBinary.run(["find", "--help"])
        #expect(help.stdout.contains("GeoNames (geonames.org), CC BY 4.0"))
    }

    @Test("find --map writes a page centred on the location")
    func findMap() throws {
        let result = try PhotomapBinary.run(
            ["find", "Radio City Music Hall", "--map", "hall.html"],
            environment: environment, in: work.url)
        #expect(result.status == 0)
        let html = try String(contentsOf: work.url.appendingPathComponent("hall.html"), encoding: .utf8)
        #expect(html.contains("\"focus\":[40.759976,-73.979977]"))
        #expect(html.contains("\"span\":0.05"))
    }

    @Test("search: several queries at once, each within the radius, as a table and as JSON")
    func searchOffline() throws {
        let table = try PhotomapBinary.run(
            ["search", "coffee", "theater", "--near", "40.76,-73.98"],
            environment: environment)
        #expect(table.status == 0)
        #expect(table.stdout.contains("coffee: ") && table.stdout.contains("theater: "))
        let results = try json(
            try PhotomapBinary.run(
                [
                    "search", "bridge", "--near", "San Francisco",
                    "--radius", "10", "--json",
                ],
                environment: environment))
        #expect(results.count > 5)
        #expect(results.allSatisfy { ($0["distanceKm"] as? Double ?? 99) <= 10 && $0["query"] as? String == "bridge" })
        #expect(results.contains { $0["title"] as? String == "Golden Gate Bridge" })
    }

    @Test("search against Flickr sends text, lat, lon, radius and has_geo, and indexes what it fetched")
    func searchFlickr() throws {
        let result = try PhotomapBinary.run(
            [
                "search", "bridge", "tower", "--near", "51.5074,-0.1278", "--radius", "8",
                "--json", "--api-key", key, "--endpoint", server.endpoint(),
            ],
            environment: environment)
        #expect(result.status == 0)
        let requests = try server.requests(where: ("api_key", key)).filter { $0["method"] == "flickr.photos.search" }
        #expect(Set(requests.compactMap { $0["text"] }) == ["bridge", "tower"])
        for request in requests {
            #expect(request["lat"] == "51.5074" && request["lon"] == "-0.1278" && request["radius"] == "8.0")
            #expect(request["has_geo"] == "1" && request["extras"]?.contains("url_sq") == true)
        }
        #expect(try json(result).contains { $0["title"] as? String == "Tower Bridge" })
        let tooFar = try PhotomapBinary.run(
            [
                "search", "bridge", "--near", "51.5,-0.12", "--radius", "40",
                "--api-key", key, "--endpoint", server.endpoint(),
            ],
            environment: environment)
        #expect(tooFar.status == 2 && tooFar.stderr.contains("under 32 km"))
    }

    @Test("find against Flickr asks flickr.places.find")
    func findFlickr() throws {
        let result = try PhotomapBinary.run(
            [
                "find", "Paris", "--json", "--api-key", key,
                "--endpoint", server.endpoint(),
            ],
            environment: environment)
        #expect(result.status == 0)
        #expect(try json(result).first?["title"] as? String == "Paris")
        #expect(
            try server.requests(where: ("api_key", key)).contains {
                $0["method"] == "flickr.places.find" && $0["query"] == "Paris"
            })
    }

    @Test("what a listing fetched from Flickr is found offline later; index rebuild keeps it")
    func offlineAfterFetching() throws {
        // An empty embedded catalog, so only what was fetched can be found.
        let catalog = try TestCatalog(in: work.url, squareURLs: [])
        var environment = self.environment
        environment["PHOTOMAP_FIXTURES"] = catalog.folder.path
        let sanFrancisco = "ls4gmTBTk_4feZKqXyis"
        let before = try PhotomapBinary.run(
            [
                "search", "bridge", "--near", "37.7749,-122.4194",
                "--radius", "10", "--offline",
            ],
            environment: environment)
        #expect(before.status == 1)
        let fetched = try PhotomapBinary.run(
            [
                "photos", "--place", sanFrancisco, "--limit", "200", "--api-key", key,
                "--endpoint", server.endpoint(),
            ], environment: environment)
        #expect(fetched.status == 0)
        let after = try PhotomapBinary.run(
            [
                "search", "bridge", "--near", "37.7749,-122.4194", "--radius", "10",
                "--offline", "--json",
            ],
            environment: environment)
        #expect(after.status == 0)
        #expect(try json(after).count > 5)
        let rebuilt = try PhotomapBinary.run(["index", "rebuild"], environment: environment)
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("photomap: indexed "))
        let again = try PhotomapBinary.run(
            [
                "search", "bridge", "--near", "37.7749,-122.4194", "--radius", "10",
                "--offline", "--json",
            ],
            environment: environment)
        #expect(try json(again).count == (try json(after)).count)
    }
}

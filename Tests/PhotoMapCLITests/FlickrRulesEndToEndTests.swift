// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

private func json(_ result: PhotomapBinary.Result) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
}

/// photomap against the Flickr-protocol server (answers shaped as Flickr's: numbers as strings and numbers,
/// `{_content}`, `pathalias` null, videos, the 1969 placeholder), run as a user runs it.
@Suite("Faithful to the real Flickr, end to end")
struct FlickrRulesEndToEndTests {
    let server = LoopbackServer.flickr
    let key = "KEY-\(UUID().uuidString)"
    let work: TemporaryFolder
    let newYork = "LATOAYBHhITBWjUq5GkE", reykjavik = "CTUuhTIRnlu09x0F", lisbon = "TKRzEzSrM_ORpMOe"

    init() throws {
        work = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: work.url.appendingPathComponent("cache"))
    }

    var cache: URL { work.url.appendingPathComponent("cache") }
    var environment: [String: String] { ["PHOTOMAP_CACHE": cache.path] }

    /// `photomap ARGS` with the Flickr source on the test server (a scenario such as "ignore-radius" first).
    func flickr(
        _ arguments: [String], scenario: String = "",
        environment extra: [String: String] = [:]
    ) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(
            arguments + ["--api-key", key, "--endpoint", server.endpoint(scenario)],
            environment: environment.merging(extra) { $1 }, in: work.url)
    }

    func requests(_ method: String) throws -> [[String: String]] {
        try server.requests(where: ("api_key", key)).filter { $0["method"] == method }
    }

    // 1
    @Test("search with Flickr asks sort=relevance, keeps the radius, prints what offline search prints, in its order")
    func searchRelevanceWithinRadius() throws {
        let london = ["--near", "51.5074,-0.1278", "--radius", "5", "--json"]
        // This server, like answers recorded from Flickr, sends matches from anywhere, whatever the radius.
        let online = try json(try flickr(["search", "bridge"] + london, scenario: "ignore-radius"))
        let asked = try #require(try requests("flickr.photos.search").first)
        #expect(asked["sort"] == "relevance" && asked["radius"] == "5.0")
        #expect(online.count > 3)
        #expect(online.allSatisfy { ($0["distanceKm"] as? Double ?? 99) <= 5 && $0["kind"] as? String == "photo" })
        // Online and offline rank alike: relevance over the text, then distance.
        let offline = try json(
            try PhotomapBinary.run(
                ["search", "bridge", "--offline", "--source", "flickr"] + london,
                environment: environment))
        let onlineIDs = online.compactMap { $0["id"] as? String }
        #expect(offline.compactMap { $0["id"] as? String }.filter(onlineIDs.contains) == onlineIDs)
    }

    // 2
    @Test("find --near with Flickr re-ranks flickr.places.find's candidates: the town 0.3 km away, not the state")
    func findNearWithFlickr() throws {
        let near = try json(try flickr(["find", "Idaho", "--near", "35.09,-87.29", "--json"]))
        let first = try #require(near.first)
        #expect(abs((first["latitude"] as? Double ?? 0) - 35.0921) < 0.001, "\(near)")
        #expect(try requests("flickr.places.find").first?["query"] == "Idaho")
        let anywhere = try json(try flickr(["find", "Idaho", "--json"]))
        #expect(abs((anywhere.first?["latitude"] as? Double ?? 0) - 44.389) < 0.001, "the state, without --near")
    }

    // 11
    @Test("find with Flickr finds a landmark flickr.places.find does not know, from the gazetteer")
    func landmarkWithFlickr() throws {
        let found = try json(try flickr(["find", "Radio City Music Hall", "--json"]))
        #expect(found.first?["title"] as? String == "Radio City Music Hall")
        #expect(found.first?["subtitle"] as? String == "Lat:40.759976 Lon:-73.979977")
        #expect(try requests("flickr.places.find").count == 1, "Flickr was asked too")
    }

    // 3 and 7
    @Test("export puts the photos it fetched in the index, and --offline lists them at any page size")
    func exportIndexesAndKeepsListings() throws {
        // An empty embedded catalog: only what the export fetched can be found.
        let catalog = try TestCatalog(in: work.url, squareURLs: [])
        let env = ["PHOTOMAP_FIXTURES": catalog.folder.path]
        let site = work.url.appendingPathComponent("site").path
        let exported = try flickr(["export", "--out", site, "--places", "1", "--limit", "20"], environment: env)
        #expect(exported.status == 0, "\(exported.stderr)")
        let offline = ["--offline", "--source", "flickr", "--endpoint", server.endpoint()]
        let listed = try json(
            try PhotomapBinary.run(
                ["photos", "--place", newYork, "--limit", "5", "--json"] + offline,
                environment: environment.merging(env) { $1 }))
        #expect(listed.count == 5)
        func words(_ record: [String: Any]) -> [Substring] { (record["title"] as? String ?? "").split { !$0.isLetter } }
        let photo = try #require(listed.first { words($0).contains { $0.count >= 4 } })
        let word = String(try #require(words(photo).first { $0.count >= 4 }))
        let near = "\(photo["latitude"] as? Double ?? 0),\(photo["longitude"] as? Double ?? 0)"
        let found = try PhotomapBinary.run(
            ["search", word, "--near", near, "--radius", "1", "--json"] + offline,
            environment: environment.merging(env) { $1 })
        #expect(found.status == 0, "\(found.stderr)")
        #expect(try json(found).contains { $0["id"] as? String == photo["id"] as? String })
        let tooFar = try PhotomapBinary.run(
            ["photos", "--place", newYork, "--limit", "30"] + offline,
            environment: environment)
        #expect(tooFar.status == 1 && tooFar.stderr.contains("no cached answer"), "20 fetched, 30 asked")
    }

    // 4, 8, 9
    @Test("pages from Flickr credit Flickr, carry its notice, and show each photo's owner, licence and link back")
    func creditsAndLinksBack() throws {
        let result = try flickr(["photos", "--place", reykjavik, "--json", "--map", "r.html"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: work.url.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(page.contains("Photos and places: Flickr") && page.contains(PageCredits.flickrNotice))
        // Its map names the GeoNames places around Reykjavík past the outline's zoom: GeoNames is credited
        // once, for them.
        #expect(
            page.components(separatedBy: "GeoNames").count == 2
                && page.contains("Place names: GeoNames (geonames.org), CC BY 4.0."))
        #expect(page.contains("[\"Reykjavík\","), "the place names around the photos")
        // Every photo links to https://www.flickr.com/photos/{pathalias or owner}/{id}, as its record says.
        let recorded =
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: LoopbackServer.repositoryRoot
                        .appendingPathComponent("Fixtures/catalog/photos/\(reykjavik)/page-1.json"))) as? [String: Any]
        let records = ((recorded?["photos"] as? [String: Any])?["photo"] as? [[String: Any]]) ?? []
        #expect(records.count == 7)
        for photo in try json(result) {
            let record = try #require(records.first { $0["id"] as? String == photo["id"] as? String })
            let user = (record["pathalias"] as? String) ?? (record["owner"] as? String ?? "")
            let link = "https://www.flickr.com/photos/\(user)/\(record["id"] as? String ?? "")"
            #expect(photo["pageURL"] as? String == link)
            let id = record["id"] as? String ?? ""
            let photoPage = try String(
                contentsOf: work.url.appendingPathComponent("r_files/photos/\(id).html"),
                encoding: .utf8)
            #expect(photoPage.contains("href=\"\(link)\""), "the photo page links back")
            #expect(page.contains("\(link)"), "the list and the callouts link back")
            #expect(photoPage.contains("<dt>By</dt><dd>\(HTML.text(record["ownername"] as? String ?? ""))</dd>"))
            let license = try #require(photo["license"] as? [String: Any])
            #expect(
                photoPage.contains("<dt>Licence</dt><dd>")
                    && photoPage.contains(HTML.text(license["name"] as? String ?? "?")))
            if let url = license["url"] as? String { #expect(photoPage.contains("href=\"\(url)\" rel=\"license")) }
        }
        #expect(
            records.contains { $0["pathalias"] is NSNull } && records.contains { $0["pathalias"] is String },
            "both kinds of link are checked")
    }

    @Test("photos --map titles its page by flickr.places.getInfo, not the top places; an unknown id costs the name")
    func mapTitleFromPlaceInfo() throws {
        let result = try flickr(["photos", "--place", reykjavik, "--limit", "3", "--map", "r.html"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: work.url.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(page.contains("<title>Reykjavík · photomap</title>"), "\(page.prefix(600))")
        // Three of the place's photos, and the page says it holds more.
        #expect(
            page.contains("<p class=\"subtitle\">3 of ") && page.contains(" photos · Capital Region, Iceland</p>"),
            "\(page.prefix(600))")
        #expect(try requests("flickr.places.getInfo").map { $0["place_id"] } == [reykjavik])
        #expect(try requests("flickr.places.getTopPlacesList").isEmpty)
        let unknown = try flickr(["photos", "--place", "nowhere", "--map", "n.html"])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains(
                "photomap: warning: the page is not titled with the place's name: "
                    + "Flickr refused flickr.places.getInfo (code 2): Not a valid Places ID"), "\(unknown.stderr)")
        let untitled = try String(contentsOf: work.url.appendingPathComponent("n.html"), encoding: .utf8)
        #expect(untitled.contains("<title>Photos of nowhere · photomap</title>"))
    }

    @Test("pages from the embedded catalog credit it and GeoNames, with Flickr's notice; --help carries the notice")
    func catalogCreditsAndHelp() throws {
        let result = try PhotomapBinary.run(["places", "--map", "p.html"], environment: environment, in: work.url)
        #expect(result.status == 0)
        let page = try String(contentsOf: work.url.appendingPathComponent("p.html"), encoding: .utf8)
        #expect(page.contains("sample catalog") && page.contains("GeoNames") && page.contains(PageCredits.flickrNotice))
        #expect(!page.contains("Photos and places: Flickr"))
        for arguments in [["--help"], ["export", "--help"], ["search", "--help"]] {
            #expect(
                try PhotomapBinary.run(arguments).stdout.contains(
                    "This product uses the Flickr API but is not endorsed or certified by SmugMug, Inc."))
        }
    }

    // 5
    @Test("Flickr's unknown date taken is null in JSON, blank in the table, absent from the photo page")
    func unknownDate() throws {
        let unknown = "45741323281"
        let photos = try json(try flickr(["photos", "--place", newYork, "--limit", "300", "--json"]))
        let photo = try #require(photos.first { $0["id"] as? String == unknown })
        #expect(photo["dateTaken"] is NSNull)
        #expect(photos.contains { $0["dateTaken"] is String })
        let table = try flickr(["photos", "--place", newYork, "--limit", "300"])
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix(unknown) })
        #expect(!row.contains("1969") && !row.contains("1970"))
        _ = try PhotomapBinary.run(
            ["photos", "--place", newYork, "--limit", "300", "--map", "ny.html"],
            environment: environment, in: work.url)
        let page = try String(
            contentsOf: work.url.appendingPathComponent("ny_files/photos/\(unknown).html"),
            encoding: .utf8)
        #expect(!page.contains("<dt>Taken</dt>") && !page.contains("1969"))
    }

    // 6
    @Test("videos are not listed: the catalog's, and one in an answer that ignored media=photos")
    func videos() throws {
        let video = "51503240637"
        let fixtures = try json(
            try PhotomapBinary.run(
                ["photos", "--place", lisbon, "--json"],
                environment: environment))
        let mixed = try json(try flickr(["photos", "--place", lisbon, "--json"], scenario: "mixed-media"))
        #expect(!fixtures.isEmpty && !fixtures.contains { $0["id"] as? String == video })
        #expect(mixed.map { $0["id"] as? String } == fixtures.map { $0["id"] as? String })
        #expect(try requests("flickr.photos.search").first?["media"] == "photos")
    }

    // 10
    @Test("processes sharing a key share its bucket: their calls line up one interval apart")
    func pacedAcrossProcesses() throws {
        let bucket = FlickrRateLimiter(budget: FileCallBudget(cacheDirectory: cache, apiKey: key), sleep: { _ in })
        for _ in 0..<60 { try bucket.acquire() }  // what an earlier run left: an empty bucket
        let places = ["hS4wMLD0wPIXPXB", reykjavik, lisbon]
        let statuses = Locked<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: places.count) { index in
            let status = (try? flickr(["photos", "--place", places[index], "--limit", "3"]))?.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == [0, 0, 0])
        let times = try server.times(where: ("api_key", key))
        #expect(times.count >= 4)
        let interval = 3_600.0 / 3_540
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= interval - 0.15, "calls \(later - earlier) s apart: \(times)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("rate").path)
        // One bucket and its lock, for the one key; neither named by it.
        #expect(
            names.count == 2 && names.filter { $0.hasSuffix(".lock") }.count == 1
                && names.allSatisfy { !$0.contains(key) })
    }

    @Test("an export the rate limit will slow says so first; the hourly rate can only be lowered")
    func exportWarnsOfPacing() throws {
        let bucket = FlickrRateLimiter(budget: FileCallBudget(cacheDirectory: cache, apiKey: key), sleep: { _ in })
        for _ in 0..<60 { try bucket.acquire() }
        let site = work.url.appendingPathComponent("site").path
        // Nine calls at about one a second: over the five seconds that are announced, even on a slow machine.
        let result = try flickr(["export", "--out", site, "--places", "8", "--limit", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("exporting 8 places takes up to 9 calls to Flickr's API")
                && result.stderr.contains("limit of 3600 an hour for this key, photomap paces them"),
            "\(result.stderr)")
        let tooFast = try flickr(["places"], environment: ["PHOTOMAP_FLICKR_CALLS_PER_HOUR": "5000"])
        #expect(tooFast.status == 2 && tooFast.stderr.contains("from 1 to 3600"))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap visited` in each format, and the page of the places you have been served and exported, on a
/// small imported catalog: two days in Ljubljana, Florence twice and Arezzo in Tuscany with a photo
/// without a location between, New Year's Eve in Vienna.
@Suite("Visited end to end", .serialized)
struct VisitedEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder

    /// Name, local time taken, its offset, and where (nil: no location).
    static let taken: [(String, String, String?, (Double, Double)?)] = [
        ("ljubljana-1", "2024:03:01 10:00:00", "+01:00", (46.0569, 14.5058)),
        ("ljubljana-2", "2024:03:02 10:00:00", "+01:00", (46.0520, 14.5100)),
        ("florence-1", "2024:07:10 09:00:00", "+02:00", (43.7696, 11.2558)),
        ("florence-2", "2024:07:10 18:00:00", "+02:00", (43.7731, 11.2560)),
        ("lost", "2024:07:11 12:00:00", "+02:00", nil),
        ("arezzo", "2024:07:12 12:00:00", "+02:00", (43.4633, 11.8796)),
        ("vienna", "2024:12:31 23:30:00", "+01:00", (48.2082, 16.3738)),
    ]

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeTaken(Self.taken, in: photos.url)
        let imported = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", photos.url.path, "--visibility", "public",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func local(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path, "--source", "local"] + arguments)
    }

    /// The countries `visited --format json` gives.
    func countries() throws -> [[String: Any]] {
        let json = try local(["visited", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    }

    @Test("the table and JSON: countries, regions, towns with photos, days, first and last visit and cover")
    func tableAndJSON() throws {
        let table = try local(["visited"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ") == ["PLACE", "PHOTOS", "DAYS", "FIRST", "LAST", "COVER"])
        #expect(lines.last == "3 countries")
        let italy = try #require(lines.first { $0.hasPrefix("Italy ") })
        #expect(italy.split(separator: " ").prefix(5) == ["Italy", "3", "2", "2024-07-10", "2024-07-12"])
        #expect(lines.contains { $0.hasPrefix("  Tuscany ") } && lines.contains { $0.hasPrefix("    Arezzo ") })

        let countries = try countries()
        #expect(countries.map { $0["name"] as? String } == ["Italy", "Slovenia", "Austria"])
        let first = try #require(countries.first)
        #expect(first["photos"] as? Int == 3 && first["days"] as? Int == 2)
        #expect(first["first"] as? String == "2024-07-10" && first["last"] as? String == "2024-07-12")
        let tuscany = try #require((first["regions"] as? [[String: Any]])?.first)
        #expect(tuscany["name"] as? String == "Tuscany")
        let towns = try #require(tuscany["towns"] as? [[String: Any]])
        #expect(towns.map { $0["name"] as? String } == ["Florence", "Arezzo"])
        // The cover is the last photo taken: Arezzo's for the town, its region and its country.
        let cover = try #require(towns.last?["cover"] as? String)
        #expect(cover.hasPrefix("local-"))
        #expect(tuscany["cover"] as? String == cover && first["cover"] as? String == cover)
        #expect(towns.first?["cover"] as? String != cover)
        // Each cover is in the table too.
        #expect(italy.hasSuffix(cover))
        // A country's and a region's page id, as /visited/ID has it; a town has none.
        #expect(first["id"] as? String == VisitedPlace.pageID(["Italy"]))
        #expect(tuscany["id"] as? String == VisitedPlace.pageID(["Italy", "Tuscany"]))
        #expect((tuscany["id"] as? String)?.hasPrefix("italy-tuscany-") == true)
        #expect(towns.allSatisfy { $0["id"] == nil })
    }

    @Test("CSV: a row per country, region and town with its cover; --output names the format by extension")
    func csv() throws {
        let csv = try local(["visited", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map {
            $0.components(separatedBy: ",")
        }
        #expect(rows.first == ["country", "region", "town", "photos", "days", "first", "last", "cover", "id"])
        let cover = try #require(try countries().first?["cover"] as? String)
        let (italy, tuscany) = (VisitedPlace.pageID(["Italy"]), VisitedPlace.pageID(["Italy", "Tuscany"]))
        #expect(rows.contains(["Italy", "", "", "3", "2", "2024-07-10", "2024-07-12", cover, italy]))
        #expect(rows.contains { $0.prefix(3) == ["Italy", "Tuscany", ""] && $0.last == tuscany })
        #expect(rows.contains(["Italy", "Tuscany", "Arezzo", "1", "1", "2024-07-12", "2024-07-12", cover, ""]))
        #expect(rows.dropFirst().allSatisfy { $0.count == 9 })

        let file = cache.url.appendingPathComponent("visited.csv")
        let written = try local(["visited", "--output", file.path])
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.contains("written to"))
        #expect(try String(contentsOf: file, encoding: .utf8) == csv.stdout)
        let wrong = try local(["visited", "--output", cache.url.appendingPathComponent("visited.kml").path])
        #expect(wrong.status == 2 && wrong.stderr.contains(".geojson"), "\(wrong.stderr)")
        let unknown = try local(["visited", "--format", "kml"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
    }

    @Test("GeoJSON: each country and its regions with their outlines, holding their photos and not others'")
    func geojson() throws {
        let file = cache.url.appendingPathComponent("visited.geojson")
        let written = try local(["visited", "--output", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.first?["level"] as? String == "country" && properties.first?["name"] as? String == "Italy")
        #expect(properties.first?["photos"] as? Int == 3 && properties.first?["first"] as? String == "2024-07-10")
        #expect(properties.first?["id"] as? String == VisitedPlace.pageID(["Italy"]))
        #expect(
            properties.first { $0["name"] as? String == "Tuscany" }?["id"] as? String
                == VisitedPlace.pageID(["Italy", "Tuscany"]))
        func feature(_ name: String) throws -> [[[[Double]]]] {
            let found = try #require(
                features.first { ($0["properties"] as? [String: Any])?["name"] as? String == name })
            let geometry = try #require(found["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiPolygon")
            return try #require(geometry["coordinates"] as? [[[[Double]]]])
        }
        let tuscany = try feature("Tuscany")
        #expect(
            (features.first { ($0["properties"] as? [String: Any])?["name"] as? String == "Tuscany" }?[
                "properties"] as? [String: Any])?["country"] as? String == "Italy")
        let (florence, arezzo, ljubljana, vienna) = (
            (11.2558, 43.7696), (11.8796, 43.4633), (14.5058, 46.0569), (16.3738, 48.2082)
        )
        #expect(
            Self.contains(tuscany, florence) && Self.contains(tuscany, arezzo) && !Self.contains(tuscany, ljubljana))
        let italy = try feature("Italy")
        #expect(Self.contains(italy, florence) && !Self.contains(italy, vienna))
        let (slovenia, austria) = (try feature("Slovenia"), try feature("Austria"))
        #expect(Self.contains(slovenia, ljubljana) && Self.contains(austria, vienna))
        // RFC 7946: closed rings, outer ones counter-clockwise, holes clockwise.
        for polygon in italy + tuscany {
            for (index, ring) in polygon.enumerated() {
                #expect(ring.count >= 4 && ring.first == ring.last)
                #expect((Self.twiceArea(ring) > 0) == (index == 0))
            }
        }
    }

    @Test("/visited served and export's visited.html: the viewer's places only, a map of them, fences kept")
    func pagesFollowAudiencesAndFences() throws {
        let countries = try countries()
        let vienna = try #require(countries.last?["cover"] as? String)
        #expect(try local(["visibility", vienna, "private"]).status == 0)
        let fence = try local(["fences", "add", "florence", "--near", "43.7713,11.2559", "--radius", "2000"])
        #expect(fence.status == 0, "\(fence.stderr)")
        // The owner's view at the command line: everything, where it was taken.
        let owners = try local(["visited"]).stdout
        #expect(owners.contains("Austria") && owners.contains("Florence"))

        let site = cache.url.appendingPathComponent("site")
        let exported = try local(["export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let file = try String(contentsOf: site.appendingPathComponent("visited.html"), encoding: .utf8)
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        let answer = try server.request("/visited")
        #expect(answer.status == 200)
        let served = String(decoding: answer.body, as: UTF8.self)
        for page in [file, served] {
            #expect(page.contains("<h1>Places you have been</h1>"))
            // Florence's photos are fenced: Italy is Arezzo's alone; Vienna's photo is private.
            #expect(page.contains(">Italy</a> <span class=\"visited-summary\">1 photo · 1 day · 2024-07-12"))
            #expect(page.contains("Tuscany, Italy: 1 photo") && page.contains("Slovenia: 2 photos"))
            #expect(!page.contains("Austria") && !page.contains("Florence") && !page.contains(vienna))
            #expect(page.contains("id=\"photomap-visited\"") && page.contains("photomap-visited.js"))
            #expect(page.contains("class=\"visited-legend\""))
        }
        // Their links: the town's photos and the cover's page, each where that page is.
        #expect(file.contains("href=\"places/") && file.contains("href=\"photos/local-"))
        #expect(served.contains("href=\"/places/") && served.contains("href=\"/photos/local-"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("assets/photomap-visited.js").path))
    }

    @Test("/visited/ID and visited/ID.html: a country's and a region's photos the viewer sees, 404 otherwise")
    func placePagesHoldTheViewersPhotos() throws {
        let countries = try countries()
        let vienna = try #require(countries.last?["cover"] as? String)
        let tuscany = try #require((countries.first?["regions"] as? [[String: Any]])?.first)
        let towns = try #require(tuscany["towns"] as? [[String: Any]])
        let (florence, arezzo) = (
            try #require(towns.first?["cover"] as? String), try #require(towns.last?["cover"] as? String)
        )
        #expect(try local(["visibility", vienna, "private"]).status == 0)
        #expect(try local(["fences", "add", "florence", "--near", "43.7713,11.2559", "--radius", "2000"]).status == 0)
        let ids = (
            italy: VisitedPlace.pageID(["Italy"]), tuscany: VisitedPlace.pageID(["Italy", "Tuscany"]),
            slovenia: VisitedPlace.pageID(["Slovenia"]), austria: VisitedPlace.pageID(["Austria"])
        )
        let site = cache.url.appendingPathComponent("site")
        let exported = try local(["export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        func file(_ path: String) throws -> String {
            try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
        }
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        func served(_ path: String, status: Int = 200) throws -> String {
            let answer = try server.request(path)
            #expect(answer.status == status, "\(path)")
            return String(decoding: answer.body, as: UTF8.self)
        }
        // The list and the map link each country's and region's page.
        let index = try served("/visited")
        #expect(index.contains("href=\"/visited/\(ids.tuscany)\">Tuscany</a>"))
        #expect(
            index.replacingOccurrences(of: "\\/", with: "/").contains("\"href\":\"/visited/\(ids.italy)\""))
        #expect(try file("visited.html").contains("href=\"visited/\(ids.tuscany).html\">Tuscany</a>"))
        let tuscanyPages = [
            (try served("/visited/\(ids.tuscany)"), "/visited"),
            (try file("visited/\(ids.tuscany).html"), "../visited.html"),
        ]
        for (page, back) in tuscanyPages {
            // An ordinary page of photos: Arezzo's on its map and in its list; Florence's are fenced.
            #expect(page.contains("<h1>Tuscany</h1>") && page.contains("1 photo · Italy · 1 day · 2024-07-12"))
            #expect(page.contains("id=\"photomap-annotations\"") && page.contains("class=\"annotations\""))
            #expect(page.contains(arezzo) && Self.holds(page, (43.4633, 11.8796)))
            #expect(!page.contains(florence) && !page.contains(vienna))
            #expect(!Self.holds(page, (43.7696, 11.2558)) && !Self.holds(page, (43.7731, 11.2560)))
            #expect(page.contains("href=\"\(back)\">‹ Places visited"))
        }
        #expect(try served("/visited/\(ids.italy)").contains("<h1>Italy</h1>"))
        #expect(try file("visited/\(ids.slovenia).html").contains("2 photos · 2 days · 2024-03-01 – 2024-03-02"))
        // A limit as a place page's: the newest first, and a link to more.
        let one = try served("/visited/\(ids.slovenia)?limit=1")
        #expect(one.contains("1 of 2 photos") && one.contains("?limit=2\">Show 1 more</a>"))
        #expect(try server.request("/visited/\(ids.slovenia)?limit=0").status == 400)
        // A country the viewer has no photo of answers as an unknown id, and as ids that try to get out.
        let unknown = try served("/visited/\(VisitedPlace.pageID(["Atlantis"]))", status: 404)
        #expect(unknown.contains("no such country or region"))
        for path in ["/visited/\(ids.austria)", "/visited/..%2F..%2Fetc%2Fpasswd", "/visited/..", "/visited/%00"] {
            #expect(try served(path, status: 404) == unknown, "\(path)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: site.appendingPathComponent("visited/\(ids.austria).html").path))
    }

    @Test("every page's header links the trips and the places you have been, served and exported")
    func headersLinkTripsAndVisited() throws {
        let site = cache.url.appendingPathComponent("site")
        #expect(try local(["export", "--out", site.path]).status == 0)
        let tuscany = VisitedPlace.pageID(["Italy", "Tuscany"])
        for (path, root) in [("index.html", ""), ("visited.html", ""), ("visited/\(tuscany).html", "../")] {
            let page = try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
            #expect(
                page.contains(
                    "<nav class=\"site-links\" aria-label=\"Trips and places\"><a href=\"\(root)trips/index.html\">Trips</a>"
                        + "<a href=\"\(root)visited.html\">Places visited</a></nav>"), "\(path)")
        }
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("trips/index.html").path))
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        for path in ["/", "/visited", "/trips", "/visited/\(tuscany)"] {
            let page = String(decoding: try server.request(path).body, as: UTF8.self)
            #expect(
                page.contains("<a href=\"/trips\">Trips</a><a href=\"/visited\">Places visited</a></nav>"), "\(path)")
        }
    }

    /// Whether `text` holds the latitude and the longitude of `point`, to 4 decimals.
    static func holds(_ text: String, _ point: (Double, Double)) -> Bool {
        let numbers = Set(
            text.split { !"-.0123456789".contains($0) }.compactMap { Double($0) }.map { Int(($0 * 10_000).rounded()) })
        return numbers.contains(Int((point.0 * 10_000).rounded()))
            && numbers.contains(Int((point.1 * 10_000).rounded()))
    }

    /// Whether `point` (longitude, latitude) lies in a MultiPolygon, its rings even-odd.
    static func contains(_ polygons: [[[[Double]]]], _ point: (Double, Double)) -> Bool {
        var inside = false
        for ring in polygons.joined() {
            for index in 1..<ring.count {
                let (a, b) = (ring[index - 1], ring[index])
                guard (a[1] > point.1) != (b[1] > point.1) else { continue }
                if point.0 < a[0] + (point.1 - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) { inside.toggle() }
            }
        }
        return inside
    }

    /// Twice a ring's signed area: positive when it runs counter-clockwise.
    static func twiceArea(_ ring: [[Double]]) -> Double {
        var sum = 0.0
        for index in 1..<ring.count {
            let (a, b) = (ring[index - 1], ring[index])
            sum += a[0] * b[1] - b[0] * a[1]
        }
        return sum
    }
}

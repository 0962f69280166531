// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap import --records` run as a user would: a CSV and a GeoJSON file from another catalog, loaded
/// twice, a file that is no records refused, and the photos served with their squares made on demand
/// from a local image server and from a file beside the records.
@Suite("Import of records end to end", .serialized)
struct RecordsImportEndToEndTests {
    let work: TemporaryFolder
    let cache: TemporaryFolder
    let images = LoopbackServer.images

    init() throws {
        work = try TemporaryFolder()
        cache = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: work.url.appendingPathComponent("pictures"), withIntermediateDirectories: true)
        try ExifJPEG.make(ExifJPEG.quarters(width: 320, height: 200), exif: nil)
            .write(to: work.url.appendingPathComponent("pictures/beach.jpg"))
        let csv = """
            id,title,taken,latitude,longitude,image
            rome-1,"Forum, at dawn",2019-07-01 06:10:00,41.8925,12.4853,\(images.url("/ok/big-3.jpg"))
            rome-2,"The ""Colosseum""
            at night",2019-07-01 22:00:00,41.8902,12.4922,\(images.url("/ok/big-4.jpg"))
            beach,Beach,,,,pictures/beach.jpg
            bad-lat,Nowhere,,nan,10,x.jpg
            bad-date,Never,2019-02-30 10:00:00,,,x.jpg
            short,Missing,,1,2

            """
        try Data(csv.utf8).write(to: work.url.appendingPathComponent("records.csv"))
    }

    func photomap(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments)
    }

    /// Every place's photos as `photos --json` lists them, place by place.
    func listings() throws -> [String] {
        let places = try photomap(["--source", "local", "places", "--json"]).stdout
        let ids = (try JSONSerialization.jsonObject(with: Data(places.utf8)) as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }.sorted()
        return try ids.map { try photomap(["--source", "local", "photos", "--place", $0, "--json"]).stdout }
    }

    func listing() throws -> String { try listings().joined() }

    /// Every photo of the catalog, as `photos --json` gives each.
    func photos() throws -> [[String: Any]] {
        try listings().flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]] ?? [] }
    }

    @Test("a CSV loads, names its bad rows by line; loaded again it changes nothing")
    func loadTwice() throws {
        let first = try photomap([
            "import", "--records", work.url.appendingPathComponent("records.csv").path, "--report",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("line 6: latitude \"nan\""), "\(first.stdout)")
        #expect(first.stdout.contains("line 7: taken"))
        #expect(first.stdout.contains("line 8: has 5 fields, not 6"))
        #expect(
            first.stderr.contains("3 records read, 2 located, 1 without a location, 3 added or changed, 3 rows skipped")
        )
        let before = try listing()
        #expect(before.contains("Forum, at dawn") && before.contains("The \\\"Colosseum\\\"\\nat night"))
        let again = try photomap(["import", "--records", work.url.appendingPathComponent("records.csv").path, "--json"])
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(
            summary?["changed"] as? Int == 0 && summary?["records"] as? Int == 3 && summary?["skipped"] as? Int == 3)
        #expect((summary?["report"] as? [[String: Any]])?.compactMap { $0["line"] as? Int } == [6, 7, 8])
        #expect(try listing() == before)
        let found = try photomap(["--source", "local", "search", "colosseum", "--json"])
        #expect(found.stdout.contains("Colosseum"), "\(found.stdout) \(found.stderr)")
    }

    @Test(
        "PostgreSQL: the index followed on its own connection, or in turn on a pool of one, ends as a rebuild"
    )
    func postgresFollows() throws {
        // Two batches (10,000 a transaction), words shared and not.
        var csv = "id,title,taken,latitude,longitude,image\n"
        for number in 0..<12_000 {
            let word = ["harbour", "bridge", "market"][number % 3]
            let latitude = 45 + Double(number % 400) / 100, longitude = 13 + Double(number / 400) / 100
            csv += "r\(number),\(word) \(number % 97),2020-05-\(10 + number % 19) 10:00:00,\(latitude),\(longitude),"
            csv += "http://127.0.0.1:9/\(number).jpg\n"
        }
        let file = work.url.appendingPathComponent("many.csv")
        try Data(csv.utf8).write(to: file)
        var kept: [String] = []
        for connections in ["4", "1"] {
            let url = try TestDatabase().url
            let environment = ["PHOTOMAP_DATABASE_CONNECTIONS": connections]
            let load = try PhotomapBinary.run(
                [
                    "--cache", cache.url.path, "--database", url, "import", "--records", file.path, "--visibility",
                    "public",
                ], environment: environment)
            #expect(load.status == 0 && load.stderr.contains("12,000 added or changed"), "\(load.stderr)")
            let state = try TestDatabase.psql(
                url,
                """
                SELECT (SELECT count(*) FROM index_records WHERE origin = 'local') || ' ' ||
                    (SELECT value FROM index_markers WHERE key = 'local') || ' ' ||
                    (SELECT version FROM local_version) || ' ' || (SELECT sum(records) FROM index_word_rows)
                """)
            kept.append(state)
            let words = state.split(separator: " ")
            #expect(words.first == "12000" && words.count == 4 && words[1] == words[2], "\(state)")
            #expect(try TestDatabase.wordCountsDiffering(url) == "0")
        }
        #expect(kept[0] == kept[1])
    }

    @Test("a file that is neither CSV nor GeoJSON is refused, and nothing changes")
    func refused() throws {
        #expect(try photomap(["import", "--records", work.url.appendingPathComponent("records.csv").path]).status == 0)
        let before = try listing()
        let binary = work.url.appendingPathComponent("photo.csv")
        try ExifJPEG.make(ExifJPEG.quarters(width: 64, height: 64), exif: nil).write(to: binary)
        let refused = try photomap(["import", "--records", binary.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("neither CSV with the header"), "\(refused.stderr)")
        #expect(try listing() == before)
        #expect(try photomap(["import", "--records", binary.path, work.url.path]).status == 2)
    }

    @Test("GeoJSON records load as the CSV's do; the same id updates its photo")
    func geoJSON() throws {
        let file = work.url.appendingPathComponent("records.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [151.2153, -33.8568]},
               "properties": {"id": "opera", "title": "Opera House", "taken": "2018-01-02 03:04:05",
                              "image": "pictures/beach.jpg"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [151.2153]},
               "properties": {"id": "half", "image": "pictures/beach.jpg"}}
            ]}
            """.utf8
        ).write(to: file)
        let loaded = try photomap(["import", "--records", file.path, "--json"])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.contains("\"line\" : 5"), "\(loaded.stdout)")
        #expect(try listing().contains("Opera House"))
        try Data(
            String(decoding: try Data(contentsOf: file), as: UTF8.self).replacingOccurrences(
                of: "Opera House", with: "Sydney Opera House"
            ).utf8
        ).write(to: file)
        let updated = try photomap(["import", "--records", file.path, "--json"])
        #expect(updated.stdout.contains("\"changed\" : 1"), "\(updated.stdout)")
        let listed = try listing()
        #expect(listed.contains("Sydney Opera House") && listed.components(separatedBy: "Opera House").count == 2)
    }

    @Test(
        "served: records are private unless told; a records photo's page shows its source id; its square from the image server"
    )
    func served() throws {
        // Private unless --visibility or PHOTOMAP_VISIBILITY says otherwise, as import's photos are: served to
        // no one not signed in, and the import says so.
        let records = work.url.appendingPathComponent("records.csv").path
        let loaded = try photomap(["import", "--records", records])
        #expect(loaded.status == 0 && loaded.stderr.contains("the photos read are private"), "\(loaded.stderr)")
        let photos = try photos()
        let forum = try #require(photos.first { ($0["title"] as? String) == "Forum, at dawn" }?["id"] as? String)
        let beach = try #require(photos.first { ($0["title"] as? String) == "Beach" }?["id"] as? String)
        do {
            let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
            defer { server.stop() }
            #expect(try server.request("/photos/\(forum)").status == 404)
            let tile = String(decoding: try server.request("/api/map/0/0/0.json").body, as: UTF8.self)
            #expect(tile.contains("clusters") && !tile.contains("count"), "\(tile)")
        }
        #expect(try photomap(["visibility", "--all", "public"]).status == 0)
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        let page = String(decoding: try server.request("/photos/\(forum)").body, as: UTF8.self)
        #expect(page.contains("<dt>Source id</dt><dd>rome-1</dd>"), "\(page)")
        let fetchedBefore = try images.count(of: "/ok/big-3.jpg")
        let square = try server.request("/squares/\(forum)")
        #expect(square.status == 200 && square.headers["content-type"] == "image/jpeg", "\(server.stderr)")
        let decoded = try JPEGCodec.decode(square.body)
        #expect(decoded.width == 75 && decoded.height == 75)
        #expect(try images.count(of: "/ok/big-3.jpg") == fetchedBefore + 1)
        // Asked again, from the cache: the image server is not asked twice.
        #expect(try server.request("/squares/\(forum)").status == 200)
        #expect(try images.count(of: "/ok/big-3.jpg") == fetchedBefore + 1)
        let fromFile = try server.request("/squares/\(beach)")
        #expect(fromFile.status == 200 && fromFile.headers["content-type"] == "image/jpeg", "\(server.stderr)")
        let beachPage = String(decoding: try server.request("/photos/\(beach)").body, as: UTF8.self)
        #expect(!beachPage.contains(work.url.path))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

/// Runs the built binary and decodes its `--json` output.
private func jsonArray(_ result: PhotomapBinary.Result) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
}

@Suite("photomap on the embedded catalog, end to end")
struct EmbeddedCatalogEndToEndTests {
    let newYork = "LATOAYBHhITBWjUq5GkE"

    @Test("places prints an aligned table of the top places")
    func placesTable() throws {
        let result = try PhotomapBinary.run(["places"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("PLACE ID") == true)
        #expect(lines.last == "45 places")
        let paris = try #require(lines.first { $0.contains("Paris ") })
        // Columns line up: the region starts where the header has REGION, the count ends under PHOTOS.
        let header = Array(lines[0]), row = Array(paris)
        let region = try #require(lines[0].range(of: "REGION")).lowerBound.utf16Offset(in: lines[0])
        #expect(String(row[region...]).hasPrefix("Ile-de-France, France"))
        let photosEnd = try #require(lines[0].range(of: "PHOTOS")).upperBound.utf16Offset(in: lines[0])
        #expect(String(row[(photosEnd - 3)..<photosEnd]) == "214")
        #expect(header.count == row.count)
    }

    @Test("places --json gives annotations with kind, id, title, subtitle, coordinate and photo count")
    func placesJSON() throws {
        let result = try PhotomapBinary.run(["places", "--json"])
        #expect(result.status == 0)
        let places = try jsonArray(result)
        #expect(places.count >= 40)
        let paris = try #require(places.first { $0["title"] as? String == "Paris" })
        #expect(paris["kind"] as? String == "place")
        #expect(paris["subtitle"] as? String == "Ile-de-France, France")
        #expect(paris["latitude"] is Double && paris["longitude"] is Double)
        #expect(paris["photoCount"] as? Int == 214)
        #expect(places.contains { $0["title"] as? String == "Singapore" && $0["subtitle"] as? String == "" })
        #expect(places.contains { $0["title"] as? String == "Zürich" })
    }

    @Test("photos --place lists the photos with thumbnails, owner and date; --limit caps them")
    func photosJSON() throws {
        let result = try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "120", "--json"])
        #expect(result.status == 0)
        let photos = try jsonArray(result)
        #expect(photos.count == 120)
        for photo in photos {
            #expect(photo["kind"] as? String == "photo")
            #expect((photo["title"] as? String)?.isEmpty == false)
            #expect(photo["subtitle"] is String)
            #expect((photo["thumbnailURL"] as? String)?.hasSuffix("_s.png") == true)
            #expect(photo["imageURL"] is String && photo["owner"] is String)
            // An unknown date taken is null; every photo links to its page on Flickr and carries its licence.
            #expect(photo["dateTaken"] is String || photo["dateTaken"] is NSNull)
            #expect((photo["pageURL"] as? String)?.hasPrefix("https://www.flickr.com/photos/") == true)
            #expect((photo["license"] as? [String: Any])?["name"] is String)
        }
        let hall = try #require(photos.first { $0["title"] as? String == "Radio City Music Hall" })
        #expect(abs((hall["latitude"] as? Double ?? 0) - 40.76) < 0.001)
    }

    @Test("a photo without geo is listed with null coordinates")
    func photoWithoutGeo() throws {
        let photos = try jsonArray(try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--json"]))
        let noGeo = try #require(photos.first { $0["id"] as? String == "53329638863" })
        #expect(noGeo["latitude"] is NSNull && noGeo["longitude"] is NSNull)
        #expect((noGeo["title"] as? String)?.isEmpty == false)
    }

    @Test("hostile titles come out as the same text in valid JSON; the table neuters control characters")
    func hostileTitles() throws {
        let berlin = "yjZViTj17fo6BbLk", chicago = "eWjsUbvkPByEzJcPqR"
        let titles = try [berlin, chicago].flatMap { place in
            try jsonArray(try PhotomapBinary.run(["photos", "--place", place, "--limit", "4000", "--json"]))
                .compactMap { $0["title"] as? String }
        }
        #expect(titles.contains("<img src=x onerror=alert(1)>"))
        #expect(titles.contains("</script><script>alert(\"pwned\")</script>"))
        #expect(!titles.contains(""))
    }

    @Test("the photos table shows title, description, date and coordinate")
    func photosTable() throws {
        let result = try PhotomapBinary.run(["photos", "--limit", "3", "--place", newYork])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("PHOTO ID"))
        #expect(lines.last == "3 of 287 photos")
    }

    @Test("global options may follow the command; --source fixtures is still the embedded catalog")
    func globalOptionsAfterCommand() throws {
        let result = try PhotomapBinary.run(["places", "--json", "--source", "embedded"])
        #expect(result.status == 0)
        #expect(try jsonArray(result).count >= 40)
        let former = try PhotomapBinary.run(["places", "--json", "--source", "fixtures"])
        #expect(former.status == 0)
        #expect(former.stdout == result.stdout)
    }

    @Test(
        "--help on every command prints usage on stdout and exits 0",
        arguments: [["--help"], ["places", "--help"], ["photos", "-h"], ["--help", "photos"]])
    func help(arguments: [String]) throws {
        let result = try PhotomapBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: photomap"))
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "usage errors exit 2 with photomap: error: on stderr and nothing on stdout",
        arguments: [
            ([], "no command given"),
            (["fly"], "unknown command 'fly'"),
            (["places", "--bogus"], "unknown option --bogus"),
            (["--json", "places"], "--json belongs after the command"),
            (["photos"], "photos needs --place ID"),
            (["photos", "--place", "x", "--limit", "abc"], "--limit must be a whole number"),
            (["photos", "--place", "x", "--limit", "0"], "--limit must be a whole number"),
            (["photos", "--place"], "--place needs a value"),
            (
                ["photos", "--place", "../../etc"],
                "--place must be 1 to 32 letters, digits, '.' or '_', not '../../etc'"
            ),
            (["photos", "--place", String(repeating: "a", count: 33)], "--place must be 1 to 32 letters"),
            (["places", "--source", "bing"], "--source must be one of embedded, flickr or local"),
            (["places", "--source", "flickr"], "needs an API key"),
            (["places", "--endpoint", "file:///etc/passwd"], "--endpoint must be an http or https URL"),
            (["places", "extra"], "takes no argument 'extra'"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try PhotomapBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("photomap: error: "))
        #expect(result.stderr.contains(message))
    }

    @Test("an unknown place, or no import, is a failure (exit 1) naming where photomap looked and the fix")
    func unknownPlace() throws {
        let result = try PhotomapBinary.run(["photos", "--place", "NOPE_42"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "photomap: error: no place with id \"NOPE_42\" in the embedded catalog; the ids are in "
                + "`photomap places`; for the photos you imported, give --source local\n")
        // A folder with ./Cache in it and nothing imported: the folder named, and why it is the one.
        let work = try TemporaryFolder()
        let cache = work.url.appendingPathComponent("Cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let local = try PhotomapBinary.run(["--source", "local", "places"], in: work.url)
        #expect(local.status == 1)
        #expect(
            local.stderr.contains(
                "no photos have been imported into this cache folder yet; the cache folder in use is \(cache.path) "
                    + "(chosen by ./Cache in the current folder (another folder has another cache)); "
                    + "run `photomap import FOLDER` first, or give the folder you imported into with --cache DIR"),
            "\(local.stderr)")
        let stats = try PhotomapBinary.run(["cache", "stats"], in: work.url)
        #expect(stats.stdout.contains("chosen   by ./Cache in the current folder"), "\(stats.stdout)")
        // `photomap cache` alone is `cache stats`.
        #expect(try PhotomapBinary.run(["cache"], in: work.url).stdout == stats.stdout)
        let named = try PhotomapBinary.run(["--cache", cache.path, "cache", "stats"])
        #expect(named.stdout.contains("chosen   by --cache\n"), "\(named.stdout)")
    }

    @Test("a key and no network: find and search answer from local data after one warning; places says what to try")
    func noNetwork() throws {
        let cache = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: cache.url)
        // Flickr's endpoint on a loopback port no one listens on: every call is refused at once.
        let closed = "http://127.0.0.1:\(try NginxProcess.freePort())/services/rest/"
        let flickr = ["--api-key", "k", "--endpoint", closed, "--cache", cache.url.path]
        let found = try PhotomapBinary.run(flickr + ["find", "Paris", "--limit", "1"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("Paris  France"), "\(found.stdout)")
        #expect(found.stderr.hasPrefix("photomap: warning: no network (cannot fetch \(closed): "), "\(found.stderr)")
        #expect(found.stderr.hasSuffix("): answering from the offline gazetteer\n"), "\(found.stderr)")
        #expect(found.stderr.split(separator: "\n").count == 1)
        let searched = try PhotomapBinary.run(flickr + ["search", "tower", "--limit", "1"])
        #expect(searched.status == 0, "\(searched.stderr)")
        #expect(searched.stdout.contains("Tower Bridge"), "\(searched.stdout)")
        #expect(searched.stderr.hasSuffix("): answering from the local index\n"), "\(searched.stderr)")
        let places = try PhotomapBinary.run(flickr + ["places"])
        #expect(places.status == 1)
        #expect(
            places.stderr.hasSuffix("; no network: try --offline (answers already cached) or --source embedded\n"),
            "\(places.stderr)")
        // --offline with nothing cached: the folder looked in, and the fixes.
        let offline = try PhotomapBinary.run(flickr + ["--offline", "places"])
        #expect(offline.status == 1)
        #expect(
            offline.stderr.contains(
                "; the cache folder in use is \(cache.url.path) (chosen by --cache); run the same command once online "
                    + "first, or give the folder that has the answers with --cache DIR\n"), "\(offline.stderr)")
    }
}

@Suite("photomap against a Flickr-protocol server on 127.0.0.1, end to end")
struct FlickrEndToEndTests {
    let server = LoopbackServer.flickr
    let key = "SECRET-\(UUID().uuidString)"

    @Test(
        "photos --prefetch fetches each page's squares as it is listed: a listing that fails on its second page keeps the first page's, and fails"
    )
    func prefetchKeepsListedPages() throws {
        let cache = try TemporaryFolder()
        let environment = ["FLICKR_API_KEY": key, "PHOTOMAP_ENDPOINT": server.endpoint("search-fails-from-page/2")]
        // 260 photos come 250 a page (Flickr's most for a place): the first page's squares, then the failure.
        let result = try PhotomapBinary.run(
            [
                "photos", "--place", "LATOAYBHhITBWjUq5GkE", "--limit", "260", "--prefetch",
                "--cache", cache.url.path,
            ], environment: environment)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("photomap: 250 of 250 squares ready in \(cache.url.path)/thumbs\n"))
        #expect(result.stderr.hasSuffix("Sorry, the Flickr search API is not currently available.\n"))
        let squares = try FileManager.default.subpathsOfDirectory(
            atPath: cache.url.appendingPathComponent("thumbs").path
        )
        .filter { ($0.split(separator: "/").last?.count ?? 0) == 64 }
        #expect(squares.count == 250)
    }

    @Test(
        "with a key the Flickr source answers; the cache serves the second run and --offline; the key appears nowhere")
    func flickrSource() throws {
        let cache = try TemporaryFolder()
        let environment = ["FLICKR_API_KEY": key, "PHOTOMAP_ENDPOINT": server.endpoint()]
        let first = try PhotomapBinary.run(["places", "--json", "--cache", cache.url.path], environment: environment)
        #expect(first.status == 0)
        #expect(try jsonArray(first).count >= 40)
        let second = try PhotomapBinary.run(["places", "--json", "--cache", cache.url.path], environment: environment)
        #expect(second.stdout == first.stdout)
        #expect(try server.requests(where: ("api_key", key)).count == 1)
        let offline = try PhotomapBinary.run(
            ["--offline", "--cache", cache.url.path, "places", "--json"],
            environment: ["PHOTOMAP_ENDPOINT": server.endpoint(), "PHOTOMAP_TTL": "0"])
        #expect(offline.status == 0)
        #expect(offline.stdout == first.stdout)

        let photos = try PhotomapBinary.run([
            "photos", "--place", "hS4wMLD0wPIXPXB", "--limit", "10", "--json",
            "--api-key", key, "--endpoint", server.endpoint(),
            "--cache", cache.url.path,
        ])
        #expect(photos.status == 0)
        #expect(try jsonArray(photos).count == 10)

        for result in [first, second, offline, photos] {
            #expect(!result.stdout.contains(key) && !result.stderr.contains(key))
        }
        let enumerator = FileManager.default.enumerator(at: cache.url, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            #expect(!file.lastPathComponent.contains(key))
            let contents = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(!contents.contains(key))
        }
    }

    @Test("Flickr's code 100 is a failure quoting Flickr, and the key is not printed")
    func rejectedKey() throws {
        let cache = try TemporaryFolder()
        let result = try PhotomapBinary.run([
            "places", "--api-key", key, "--endpoint", server.endpoint("fail100"),
            "--cache", cache.url.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "photomap: error: Flickr rejected the API key (code 100): Invalid API Key (Key has invalid format)\n"
        )
        #expect(!result.stderr.contains(key))
    }

    @Test("an unreachable endpoint is a failure naming the host, not the key")
    func unreachable() throws {
        let cache = try TemporaryFolder()
        let result = try PhotomapBinary.run([
            "places", "--api-key", key, "--endpoint",
            "http://127.0.0.1:9/services/rest/",
            "--cache", cache.url.path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("photomap: error: cannot fetch http://127.0.0.1:9/services/rest/"))
        #expect(!result.stderr.contains(key))
    }
}

@Suite("Map pages and export, end to end")
struct MapEndToEndTests {
    @Test(
        "--map with no file writes photomap-….html in the current folder and prints its path; stdout stays the listing")
    func defaultMapName() throws {
        let folder = try TemporaryFolder()
        let result = try PhotomapBinary.run(
            ["photos", "--place", "CTUuhTIRnlu09x0F", "--json", "--map"],
            environment: ["PHOTOMAP_CACHE": folder.url.appendingPathComponent("cache").path], in: folder.url)
        #expect(result.status == 0)
        let page = folder.url.appendingPathComponent("photomap-photos-CTUuhTIRnlu09x0F.html")
        #expect(result.stderr.contains("photomap: map written to \(page.path)"))
        #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [Any])
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<title>Reykjavík · photomap</title>"))
        #expect(html.contains("src=\"photomap-photos-CTUuhTIRnlu09x0F_files/assets/leaflet.min.js\""))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("photomap-photos-CTUuhTIRnlu09x0F_files/assets/countries.js")
                    .path))
    }

    @Test("export writes the site; a second run rewrites nothing; no machine path or key in any page")
    func exportTwice() throws {
        let folder = try TemporaryFolder()
        let environment = ["PHOTOMAP_CACHE": folder.url.appendingPathComponent("cache").path]
        let out = folder.url.appendingPathComponent("site").path
        let first = try PhotomapBinary.run(
            ["export", "--out", out, "--places", "3", "--limit", "10"],
            environment: environment)
        #expect(first.status == 0)
        #expect(first.stderr.contains("exported 3 places and 30 photos"))
        let second = try PhotomapBinary.run(
            ["export", "--out", out, "--places", "3", "--limit", "10"],
            environment: environment)
        #expect(
            second.stderr.hasSuffix("0 files written, 112 unchanged\n")
                || second.stderr.contains(" 0 files written"))
        let pages =
            FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
            ?? []
        #expect(pages.count == 34)
        for page in pages {
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            #expect(
                !html.contains(folder.url.path) && !html.contains("/root")
                    && !html.contains("/usr/share"), "\(page)")
        }
    }

    @Test("export needs --out, and Leaflet missing is a clear error")
    func exportErrors() throws {
        let missing = try PhotomapBinary.run(["export"])
        #expect(missing.status == 2 && missing.stderr.contains("export needs --out DIR"))
        let folder = try TemporaryFolder()
        let noLeaflet = try PhotomapBinary.run(
            ["export", "--out", folder.url.path, "--places", "1", "--limit", "1"],
            environment: [
                "PHOTOMAP_LEAFLET_DIR": "/nonexistent",
                "PHOTOMAP_CACHE": folder.url.appendingPathComponent("c").path,
            ])
        #expect(noLeaflet.status == 1)
        #expect(noLeaflet.stderr.contains("apt-get install libjs-leaflet (or set PHOTOMAP_LEAFLET_DIR)"))
    }
}

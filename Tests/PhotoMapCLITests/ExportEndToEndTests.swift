// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

/// A copy of the embedded catalog that a test may edit; its images are the checkout's.
struct EditableCatalog {
    /// The catalog folder (PHOTOMAP_FIXTURES).
    let folder: URL

    init(in parent: URL) throws {
        let fixtures = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures")
        folder = parent.appendingPathComponent("fixtures/catalog")
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("catalog"), to: folder)
        try FileManager.default.createSymbolicLink(
            at: folder.deletingLastPathComponent().appendingPathComponent("images"),
            withDestinationURL: fixtures.appendingPathComponent("images"))
    }

    /// The first place's id.
    func firstPlace() throws -> String {
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("top-places.json")))
                as? [String: Any])
        let places = try #require((answer["places"] as? [String: Any])?["place"] as? [[String: Any]])
        return try #require(places.first?["place_id"] as? String)
    }

    /// Gives the first photo of `place`'s listing `title`; returns its id.
    func retitleFirstPhoto(of place: String, to title: String) throws -> String {
        let page = folder.appendingPathComponent("photos/\(place)/page-1.json")
        var answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: page)) as? [String: Any])
        var photos = try #require(answer["photos"] as? [String: Any])
        var list = try #require(photos["photo"] as? [[String: Any]])
        list[0]["title"] = title
        photos["photo"] = list
        answer["photos"] = photos
        try JSONSerialization.data(withJSONObject: answer).write(to: page)
        return try #require(list[0]["id"] as? String)
    }
}

/// Every file of a site but its manifest, with what identifies that very file (inode, modification time).
func siteFiles(_ root: String) -> [String: [Int]] {
    var files: [String: [Int]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        var status = stat()
        guard path != ".photomap-manifest", stat(root + "/" + path, &status) == 0,
            (status.st_mode & S_IFMT) == S_IFREG
        else { continue }
        files[path] = [Int(status.st_ino), status.st_mtim.tv_sec, status.st_mtim.tv_nsec, Int(status.st_nlink)]
    }
    return files
}

@Suite("export that skips what did not change, end to end")
struct ExportEndToEndTests {
    let work: TemporaryFolder
    let catalog: EditableCatalog
    var site: String { work.url.appendingPathComponent("site").path }

    init() throws {
        work = try TemporaryFolder()
        catalog = try EditableCatalog(in: work.url)
    }

    /// Exports 3 places of 10 photos from this test's catalog, with `cache` as the cache folder.
    func export(cache: String = "cache", environment: [String: String] = [:]) throws -> PhotomapBinary.Result {
        let result = try PhotomapBinary.run(
            ["export", "--out", site, "--places", "3", "--limit", "10"],
            environment: [
                "PHOTOMAP_FIXTURES": catalog.folder.path,
                "PHOTOMAP_CACHE": work.url.appendingPathComponent(cache).path,
            ]
            .merging(environment) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    @Test("editing one photo's title rewrites its page and its place's page, nothing else")
    func oneTitleEdited() throws {
        _ = try export()
        let before = siteFiles(site)
        let place = try catalog.firstPlace()
        let photo = try catalog.retitleFirstPhoto(of: place, to: "A title edited since")
        let again = try export()
        #expect(again.stderr.contains(" 2 files written"), "\(again.stderr)")
        let after = siteFiles(site)
        #expect(Set(after.keys) == Set(before.keys))
        let rewritten = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(rewritten == ["photos/\(photo).html", "places/\(place).html"])
        for page in rewritten {
            #expect(
                try String(contentsOfFile: site + "/" + page, encoding: .utf8).contains("A title edited since"),
                "\(page)")
        }
    }

    @Test(
        "on pages clustered ahead of time, an edited title rewrites only the tiles that show it (tiles are the same bytes every run)"
    )
    func oneTitleEditedOnClusteredPages() throws {
        let clustered = ["PHOTOMAP_CLUSTER_THRESHOLD": "5"]
        _ = try export(environment: clustered)
        let before = siteFiles(site)
        #expect(before.keys.contains { $0.hasPrefix("clusters/") })
        let place = try catalog.firstPlace()
        let photo = try catalog.retitleFirstPhoto(of: place, to: "A title edited since")
        _ = try export(environment: clustered)
        let after = siteFiles(site)
        let rewritten = after.keys.filter { after[$0] != before[$0] }
        #expect(rewritten.contains("photos/\(photo).html") && rewritten.contains("places/\(place).html"))
        for file in rewritten {
            #expect(
                try String(contentsOfFile: site + "/" + file, encoding: .utf8).contains("A title edited since"),
                "\(file)")
        }
    }

    @Test("images are hard links to the cache's files; an image the cache no longer holds still shows in the site")
    func imagesOutliveTheCache() throws {
        _ = try export()
        let images = siteFiles(site).filter { $0.key.hasPrefix("squares/") || $0.key.hasPrefix("images/") }
        #expect(images.count == 60)
        #expect(images.values.allSatisfy { $0[3] == 2 }, "each image is one file, in the cache and the site")
        let contents = try images.keys.map { try Data(contentsOf: URL(fileURLWithPath: site + "/" + $0)) }

        // The cache is cleared (every entry evicted): the site keeps its images, byte for byte.
        let cleared = try PhotomapBinary.run(
            ["cache", "clear"], environment: ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(try images.keys.map { try Data(contentsOf: URL(fileURLWithPath: site + "/" + $0)) } == contents)

        // Exported again with an empty cache: nothing rewritten, and every page still shows its images.
        let again = try export(cache: "empty-cache")
        #expect(again.stderr.contains(" 0 files written"), "\(again.stderr)")
        let page = try String(
            contentsOfFile: site + "/"
                + (siteFiles(site).keys.first { $0.hasPrefix("photos/") } ?? ""), encoding: .utf8)
        let shown = page.components(separatedBy: "src=\"../").dropFirst().compactMap { $0.split(separator: "\"").first }
            .filter { $0.hasPrefix("squares/") || $0.hasPrefix("images/") }
        #expect(!shown.isEmpty && shown.allSatisfy { images[String($0)] != nil }, "\(shown)")
        #expect(!page.contains("placeholder.svg\" alt=\"\" width=\"240\""))
    }

    @Test(
        "a cache smaller than the site's images: each batch is placed before the next evicts it, so every page has its images"
    )
    func cacheSmallerThanTheSite() throws {
        // 6 places of up to 40 photos: ~1 MB of squares and images, in a cache of 600 KB (batches of 9 photos).
        let result = try PhotomapBinary.run(
            ["export", "--out", site, "--places", "6", "--limit", "40"],
            environment: [
                "PHOTOMAP_FIXTURES": catalog.folder.path,
                "PHOTOMAP_CACHE_LIMIT": "600KB",
                "PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = siteFiles(site)
        let photoPages = files.keys.filter { $0.hasPrefix("photos/") }
        #expect(photoPages.count > 200)
        #expect(files.keys.filter { $0.hasPrefix("squares/") }.count == photoPages.count)
        #expect(files.keys.filter { $0.hasPrefix("images/") }.count == photoPages.count)
        // The cache did evict: it holds fewer images than the site.
        let stats = try PhotomapBinary.run(
            ["cache", "stats", "--json"],
            environment: ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path])
        let entries =
            try #require(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])["entries"]
            as? Int
        #expect((entries ?? .max) < 2 * photoPages.count, "\(stats.stdout)")
        for page in photoPages {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            #expect(!html.contains("placeholder.svg\" alt=\"\" width=\"240\""), "\(page) shows the placeholder")
        }
    }

    @Test("a changed asset (or template) makes every page again; unchanged pages are not even read")
    func changedAssetRebuilds() throws {
        _ = try export()
        let pages = siteFiles(site).keys.filter { $0.hasSuffix(".html") }
        #expect(pages.count == 34)
        // A page's file that is not what the manifest recorded is made again, even with the same inputs.
        let index = site + "/index.html"
        let original = try Data(contentsOf: URL(fileURLWithPath: index))
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: index))
        #expect(try export().stderr.contains(" 1 files written"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == original)

        // photomap's own assets, one of them changed.
        let assets = work.url.appendingPathComponent("assets")
        try FileManager.default.copyItem(
            at: PhotomapBinary.url.deletingLastPathComponent().appendingPathComponent(
                "photomap_PhotoMapKit.resources/Assets"),
            to: assets)
        let style = assets.appendingPathComponent("photomap.css")
        try (try Data(contentsOf: style) + Data("\n.changed { color: red }\n".utf8)).write(to: style)
        let before = siteFiles(site)
        let changed = try export(environment: ["PHOTOMAP_ASSETS": assets.path])
        #expect(changed.stderr.contains("; 34 pages rendered\n"), "\(changed.stderr)")
        let after = siteFiles(site)
        // Every page was made again (and, being the same bytes, left as it was); the asset was rewritten.
        #expect(after["assets/photomap.css"] != before["assets/photomap.css"])
        let manifest = try String(contentsOfFile: site + "/.photomap-manifest", encoding: .utf8)
        #expect(pages.allSatisfy { page in manifest.contains("\t\(page)\n") })
        let unchangedRun = try export(environment: ["PHOTOMAP_ASSETS": assets.path])
        #expect(
            unchangedRun.stderr.contains(" 0 files written")
                && unchangedRun.stderr.contains("; 0 pages rendered\n"),
            "\(unchangedRun.stderr)")
    }

    @Test("a folder of the user's own is refused (exit 1, nothing written) unless --force; --dry-run writes nothing")
    func foreignFolder() throws {
        let mine = work.url.appendingPathComponent("mydocs")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("my own page".utf8).write(to: mine.appendingPathComponent("index.html"))
        let environment = ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path]
        func export(_ out: URL, _ more: [String]) throws -> PhotomapBinary.Result {
            try PhotomapBinary.run(
                ["--source", "fixtures", "export", "--out", out.path, "--places", "1", "--limit", "2"] + more,
                environment: environment)
        }
        let refused = try export(mine, [])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "photomap: error: \(mine.path) holds 1 file and is not a photomap site (no .photomap-manifest): "
                    + "nothing written; give a new or empty folder, or --force"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == ["index.html"])
        #expect(try String(contentsOf: mine.appendingPathComponent("index.html"), encoding: .utf8) == "my own page")

        let fresh = work.url.appendingPathComponent("fresh")
        let dry = try export(fresh, ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout == "would export 1 place and 2 photos to \(fresh.path)/index.html (a new folder); "
                + "nothing written (--dry-run)\n")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))

        let forced = try export(mine, ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: mine.appendingPathComponent(".photomap-manifest").path))
        // A photomap site now: written again without --force.
        #expect(try export(mine, ["--dry-run"]).stdout.contains("(updating the photomap site there)"))
        #expect(try export(mine, []).status == 0)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `--dry-run` on the commands that remove something: each says what would change, and nothing does.
@Suite("Dry runs of import --prune, cache prune|clear and fences remove")
struct DryRunEndToEndTests {
    @Test("each dry run says what would go, and the catalog, cache and fences stay as they were")
    func nothingChanges() throws {
        let photos = try TemporaryFolder()
        let cache = try TemporaryFolder()
        // Three photos at one spot in Bled, a minute apart.
        for (minute, name) in ["a", "b", "c"].enumerated() {
            var exif = ExifBlock()
            exif.exif = [exif.ascii(0x9003, "2024:07:12 10:0\(minute):00")]
            exif.setPosition(latitude: 46.3625, longitude: 14.0940)
            try ExifJPEG.make(ExifJPEG.quarters(width: 32, height: 32), exif: exif)
                .write(to: photos.url.appendingPathComponent("\(name).jpg"))
        }
        let engine = ["--cache", cache.url.path]
        func run(_ arguments: [String]) throws -> PhotomapBinary.Result {
            let result = try PhotomapBinary.run(engine + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try run(["import", "--visibility", "public", photos.url.path])
        _ = try run(["fences", "add", "home", "--near", "46.3625,14.0940", "--radius", "100"])
        let catalog = LocalCatalog.file(in: cache.url)
        let version = try LocalCatalog(file: catalog, readOnly: true).version()
        let stats = try run(["cache", "stats"]).stdout

        try FileManager.default.removeItem(at: photos.url.appendingPathComponent("a.jpg"))
        #expect(
            try run(["import", "--visibility", "public", photos.url.path, "--prune", "--dry-run"]).stdout
                == "would drop 1 photo (1 file gone below the folders given); nothing read or changed (--dry-run)\n")
        #expect(
            try run(["fences", "remove", "home", "--dry-run"]).stdout
                == "would remove fence 'home' and show 3 photos again where taken; nothing changed (--dry-run)\n")
        #expect(
            try run(["cache", "prune", "--max-size", "1KB", "--dry-run"]).stdout.hasSuffix(
                "; at most 1.0 KB would remain; nothing removed (--dry-run)\n"))
        #expect(try run(["cache", "clear", "--dry-run"]).stdout.hasPrefix("would remove 6 entries from "))
        // Nothing changed: the catalog's version, the cache, the fence.
        #expect(try LocalCatalog(file: catalog, readOnly: true).version() == version)
        #expect(try LocalCatalog(file: catalog, readOnly: true).allPhotos().count == 3)
        #expect(try run(["cache", "stats"]).stdout == stats)
        #expect(try run(["fences", "list"]).stdout.contains("home"))
        // --dry-run where it means nothing is a usage error.
        for arguments in [
            ["import", "--visibility", "public", photos.url.path, "--dry-run"], ["cache", "verify", "--dry-run"],
        ] {
            #expect(try PhotomapBinary.run(engine + arguments).status == 2, "\(arguments)")
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap import` run as a user would: a folder of JPEGs and a HEIC, good and bad, then every command
/// on `--source local`; no path of the folder in anything a page, a listing or the server shows.
@Suite("Import end to end", .serialized)
struct ImportEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder
    let out: TemporaryFolder

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        out = try TemporaryFolder()
        func located(_ latitude: Double, _ longitude: Double, title: String?) -> ExifBlock {
            var exif = ExifBlock()
            exif.ifd0 = [exif.short(0x0112, 6)] + (title.map { [exif.ascii(0x010E, $0)] } ?? [])
            exif.exif = [exif.ascii(0x9003, "2024:05:01 17:48:17")]
            exif.setPosition(latitude: latitude, longitude: longitude)
            return exif
        }
        let image = ExifJPEG.quarters(width: 320, height: 200)
        let folder = photos.url
        try ExifJPEG.make(image, exif: located(43.4633, 11.8796, title: "Piazza Grande"))
            .write(to: folder.appendingPathComponent("arezzo.jpg"))
        try ExifJPEG.make(image, exif: located(-33.8688, 151.2093, title: "Opera House"))
            .write(to: folder.appendingPathComponent("sydney.jpg"))
        try ExifJPEG.make(image, exif: nil).write(to: folder.appendingPathComponent("no-gps.jpg"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("phone"),
            withIntermediateDirectories: true)
        // A name with a newline and a byte that is not UTF-8, which the report must show on one line.
        let odd =
            Array(folder.appendingPathComponent("phone").path.utf8) + Array("/odd\nname".utf8) + [0xFF]
            + Array(".jpg".utf8)
        let bytes = try ExifJPEG.make(image, exif: located(40.7128, -74.0060, title: nil))
        let descriptor = open(odd.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let whole = try ExifJPEG.make(image, exif: nil)
        try whole.prefix(whole.count / 2).write(to: folder.appendingPathComponent("truncated.jpg"))
        try Data().write(to: folder.appendingPathComponent("empty.jpg"))
        try ExifJPEG.declaring(width: 20_000, height: 20_000).write(to: folder.appendingPathComponent("bomb.jpg"))
        try Data("shopping list".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("loop").path,
            withDestinationPath: "loop")
        // A HEIC with GPS: libheif's encoder keeps the JPEG's EXIF.
        let source = out.url.appendingPathComponent("rio.jpg")
        try ExifJPEG.make(image, exif: located(-22.9068, -43.1729, title: "Copacabana")).write(to: source)
        _ = try Subprocess.output(
            "/usr/bin/heif-enc",
            [
                "-q", "50", source.path, "-o",
                folder.appendingPathComponent("phone/rio.heic").path,
            ])
    }

    func photomap(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments)
    }

    /// Every file below `folder` holding the photos folder's path.
    func filesNamingThePhotos(in folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { file in
            (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self).contains(photos.url.path) } ?? false
        }.map(\.lastPathComponent)
    }

    @Test("import reads, counts and reports; every command then works on the local source")
    func importThenBrowse() throws {
        // Given relative to the folder photomap runs in, kept absolute.
        let first = try PhotomapBinary.run(
            ["--cache", cache.url.path, "import", photos.url.lastPathComponent, "--visibility", "public"],
            in: photos.url.deletingLastPathComponent())
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.contains(
                "photomap: 8 photos read, 4 located, 1 without a location, 3 not readable, 1 other file skipped (see --report)"
            ),
            "\(first.stderr)")
        let report = try photomap(["import", "--report", photos.url.path])
        #expect(report.stdout.contains("truncated.jpg: JPEG not a valid image"), "\(report.stdout)")
        #expect(report.stdout.contains("bomb.jpg: JPEG not a valid image: declared size 20000x20000 is over the limit"))
        #expect(report.stdout.contains("empty.jpg: empty file"))
        #expect(report.stdout.contains("loop: a loop of symbolic links"))
        #expect(report.stdout.contains("notes.txt: not a JPEG or HEIC photo"), "\(report.stdout)")
        #expect(report.stderr.contains("8 unchanged"), "\(report.stderr)")

        let places = try photomap(["--source", "local", "places", "--json"])
        #expect(places.status == 0, "\(places.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(places.stdout.utf8)) as? [[String: Any]])
        #expect(
            Set(listed.compactMap { $0["id"] as? String })
                == ["3182884", "2147714", "5128581", "3451190", "unlocated"])
        #expect(listed.last?["id"] as? String == "unlocated")
        #expect(listed.first { $0["id"] as? String == "3182884" }?["title"] as? String == "Arezzo")

        let arezzo = try photomap([
            "--source", "local", "photos", "--place", "3182884", "--json",
            "--map", out.url.appendingPathComponent("arezzo.html").path,
        ])
        #expect(arezzo.status == 0, "\(arezzo.stderr)")
        #expect(arezzo.stdout.contains("\"title\" : \"Piazza Grande\""))
        let newYork = try photomap(["--source", "local", "photos", "--place", "5128581", "--format", "csv"])
        #expect(newYork.stdout.contains("odd name"), "the file's name is the title: \(newYork.stdout)")
        let withPaths = try photomap(["--source", "local", "photos", "--place", "3182884", "--json", "--with-paths"])
        #expect(
            withPaths.stdout.contains("\"path\" : \"\(photos.url.appendingPathComponent("arezzo.jpg").path)\""),
            "\(withPaths.stdout)")
        let site = out.url.appendingPathComponent("site")
        let export = try photomap(["--source", "local", "export", "--out", site.path])
        #expect(export.status == 0, "\(export.stderr)")
        let placePages = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("places").path)
        #expect(placePages.contains { $0.contains("unlocated") }, "\(placePages)")
        #expect(filesNamingThePhotos(in: out.url).isEmpty)
        // Blurred, the exact spot is nowhere in the site; a spot 5 km cells away from it is.
        let blurredSite = out.url.appendingPathComponent("blurred")
        #expect(
            try photomap(["--source", "local", "export", "--out", blurredSite.path, "--blur-locations", "5"])
                .status == 0)
        let blurredText =
            (FileManager.default.enumerator(at: blurredSite, includingPropertiesForKeys: nil)?
            .allObjects as? [URL] ?? []).compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
        #expect(!blurredText.contains("43.4633") && !blurredText.contains("11.8796"))
        #expect(blurredText.contains("43.4656"))
        for output in [places, arezzo, newYork, export] { #expect(!output.stdout.contains(photos.url.path)) }

        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        let id =
            try #require(
                listed.isEmpty
                    ? nil
                    : try JSONSerialization.jsonObject(
                        with: Data(arezzo.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String
        for path in ["/", "/places/3182884", "/places/unlocated", "/photos/\(id ?? "")", "/squares/\(id ?? "")"] {
            let answer = try server.request(path)
            #expect(answer.status == 200, "\(path): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains(photos.url.path))
        }
        let square = try server.request("/squares/\(id ?? "")")
        #expect(square.headers["content-type"] == "image/jpeg")
        // The user's own photos: kept by no cache shared with others (a proxy's).
        #expect(square.headers["cache-control"] == "private, max-age=86400")
        #expect(try server.request("/photos/\(id ?? "")").headers["cache-control"] == "private, no-cache")
        server.stop()
    }

    @Test("a second import reads no unchanged file; --prune drops the photos of files gone")
    func reimportAndPrune() throws {
        #expect(try photomap(["import", photos.url.path]).status == 0)
        let before = try photomap(["--source", "local", "photos", "--place", "3182884", "--json"]).stdout
        // New bytes of the same size, with the old modification time back: unread, the photo stays as it was.
        let arezzo = photos.url.appendingPathComponent("arezzo.jpg")
        var info = stat()
        #expect(stat(arezzo.path, &info) == 0)
        let handle = try FileHandle(forWritingTo: arezzo)
        try handle.seek(toOffset: 400)
        try handle.write(contentsOf: Data(repeating: 0x55, count: 64))
        try handle.close()
        let times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, arezzo.path, times, 0) == 0)
        let again = try photomap(["import", photos.url.path])
        #expect(again.stderr.contains("8 unchanged"), "\(again.stderr)")
        #expect(try photomap(["--source", "local", "photos", "--place", "3182884", "--json"]).stdout == before)

        try FileManager.default.removeItem(at: photos.url.appendingPathComponent("sydney.jpg"))
        let kept = try photomap(["import", photos.url.path])
        #expect(
            kept.stderr.contains("7 photos read") && kept.stderr.contains("1 gone (kept: --prune drops them)"),
            "\(kept.stderr)")
        #expect(try photomap(["--source", "local", "places", "--json"]).stdout.contains("\"2147714\""))
        let pruned = try photomap(["import", "--prune", photos.url.path])
        #expect(pruned.stderr.contains("1 gone, 1 photo removed"), "\(pruned.stderr)")
        #expect(!(try photomap(["--source", "local", "places", "--json"]).stdout.contains("\"2147714\"")))
    }

    @Test(
        "with --database the catalog is the database's, imported by a role that may create nothing: another cache folder lists and serves the photos"
    )
    func sharedCatalog() throws {
        let database = try TestDatabase().leastPrivilegedURL()
        let imported = try photomap(["--database", database, "import", "--visibility", "public", photos.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache.url.appendingPathComponent("local-catalog.sqlite").path))
        let status = try photomap(["--database", database, "db", "status"])
        #expect(status.stdout.contains("local_photos: 5 rows"), "\(status.stdout)")
        // A second machine's cache: the listing comes from the database, the squares are made from the files.
        let other = try TemporaryFolder()
        let places = try PhotomapBinary.run([
            "--cache", other.url.path, "--database", database, "--source", "local",
            "places", "--json",
        ])
        #expect(places.status == 0 && places.stdout.contains("\"3182884\""), "\(places.stderr)")
        let arezzo = try PhotomapBinary.run([
            "--cache", other.url.path, "--database", database, "--source", "local",
            "photos", "--place", "3182884", "--json",
        ])
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(arezzo.stdout.utf8)) as? [[String: Any]])?
                .first?["id"] as? String)
        let server = try ServeProcess(
            ["--cache", other.url.path, "--database", database, "--source", "local"],
            environment: [:])
        let square = try server.request("/squares/\(id)")
        #expect(square.status == 200 && square.headers["content-type"] == "image/jpeg")
        #expect(try server.request("/places/unlocated").status == 200)
        server.stop()
        let again = try photomap(["--database", database, "import", "--visibility", "public", photos.url.path])
        #expect(again.stderr.contains("8 unchanged"), "\(again.stderr)")
    }

    @Test("the local source before any import, or a folder that is not there, says what to do")
    func nothingImported() throws {
        let result = try photomap(["--source", "local", "places"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("photomap: error: no photos have been imported"), "\(result.stderr)")
        let missing = try photomap(["import", photos.url.appendingPathComponent("nowhere").path])
        #expect(missing.status == 1 && missing.stderr.contains("No such file or directory"), "\(missing.stderr)")
        #expect(try photomap(["import"]).status == 2)
    }
}

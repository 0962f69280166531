// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// XMP sidecars against exiftool: what photomap writes exiftool reads at the position set; what exiftool
/// writes photomap imports at its position, over the file's own GPS and an earlier correction.
@Suite("XMP sidecars end to end, exiftool the reference", .serialized)
struct SidecarEndToEndTests {

    let photos: TemporaryFolder
    let cache: TemporaryFolder
    var folder: URL { photos.url.appendingPathComponent("2024") }

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: photos.url.appendingPathComponent("2024"), withIntermediateDirectories: true)
        let shots: [(String, String, (Double, Double)?)] = [
            ("own", "08:20", (46.0569, 14.5058)), ("bare", "08:30", nil), ("third", "08:40", nil),
            ("fourth", "08:50", nil),
        ]
        for (name, time, own) in shots {
            var exif = ExifBlock()
            exif.exif = [exif.ascii(0x9003, "2024:07:12 \(time):00")]
            if let own { exif.setPosition(latitude: own.0, longitude: own.1) }
            try ExifJPEG.make(ExifJPEG.quarters(width: 32, height: 32), exif: exif)
                .write(to: photos.url.appendingPathComponent("2024/\(name).jpg"))
        }
    }

    func run(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments)
    }

    func records() throws -> [String: Photo] {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true)
        catalog.audiences = Set(Audience.allCases)  // the owner's view: imports are private
        return Dictionary(uniqueKeysWithValues: try catalog.allPhotos().map { ($0.title, $0) })
    }

    @Test("locate --sidecars write: exiftool reads the position; originals untouched; exiftool's sidecars imported")
    func bothWays() throws {
        guard Exiftool.installed else {
            Issue.record("exiftool is not installed (Debian libimage-exiftool-perl): scripts/install-deps installs it")
            return
        }
        #expect(try run(["import", photos.url.path]).status == 0)
        let ids = try records().mapValues(\.id)
        let bare = try #require(ids["bare"]), third = try #require(ids["third"])
        let original = try Data(contentsOf: folder.appendingPathComponent("bare.jpg"))

        // photomap writes; exiftool reads within 1e-6°.
        for (at, naming, name) in [
            ((46.3625, 14.0936), "full", "bare.jpg.xmp"), ((-33.856_789_1, -151.215_3), "base", "bare.xmp"),
        ] {
            let located = try run([
                "locate", bare, "--at", "\(at.0),\(at.1)", "--sidecars", "write", "--sidecar-name", naming,
            ])
            #expect(located.status == 0, "\(located.stderr)")
            #expect(located.stderr.contains("1 sidecar written"), "\(located.stderr)")
            let read = try #require(try Exiftool.position(ofSidecar: folder.appendingPathComponent(name).path))
            #expect(abs(read.0 - at.0) < 1e-6 && abs(read.1 - at.1) < 1e-6, "\(read)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("bare.jpg")) == original)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("own.jpg.xmp").path))

        // exiftool writes sidecars of its own (new ones, and one made from the image with -o, which copies
        // the image's own GPS when it has one): the next import puts the photos there, over the file's GPS.
        let thirdSidecar = folder.appendingPathComponent("third.jpg.xmp").path
        _ = try Subprocess.output(
            Exiftool.path, ["-q", "-XMP:GPSLatitude=45.5", "-XMP:GPSLongitude=-73.5", thirdSidecar])
        _ = try Subprocess.output(
            Exiftool.path,
            [
                "-q", "-XMP:GPSLatitude=-41.29", "-XMP:GPSLongitude=174.78",
                folder.appendingPathComponent("own.jpg.xmp").path,
            ])
        _ = try Subprocess.output(
            Exiftool.path,
            [
                "-q", "-XMP:GPSLatitude=64.1355", "-XMP:GPSLongitude=-21.8954", "-o", "%d%f.%e.xmp",
                folder.appendingPathComponent("fourth.jpg").path,
            ])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("fourth.jpg.xmp").path))
        let imported = try run(["import", photos.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("not a JPEG"), "\(imported.stderr)")
        var byTitle = try records()
        #expect(byTitle["third"]?.coordinate == Coordinate(latitude: 45.5, longitude: -73.5))
        #expect(byTitle["third"]?.locationSource == .sidecar)
        #expect(byTitle["own"]?.coordinate == Coordinate(latitude: -41.29, longitude: 174.78))
        #expect(byTitle["own"]?.locationSource == .sidecar)
        #expect(byTitle["fourth"]?.coordinate == Coordinate(latitude: 64.1355, longitude: -21.8954))
        // photomap's own sidecar keeps its source.
        #expect(byTitle["bare"]?.locationSource == .manual)

        // A correction here, then another tool changes the sidecar: the file on disk wins.
        #expect(try run(["locate", third, "--at", "1,1"]).status == 0)
        #expect(try run(["import", photos.url.path]).status == 0)
        #expect(try records()["third"]?.coordinate == Coordinate(latitude: 1, longitude: 1))
        _ = try Subprocess.output(
            Exiftool.path, ["-q", "-overwrite_original", "-XMP:GPSLatitude=12.25", thirdSidecar])
        #expect(try run(["import", photos.url.path]).status == 0)
        byTitle = try records()
        #expect(byTitle["third"]?.coordinate == Coordinate(latitude: 12.25, longitude: -73.5))
        #expect(byTitle["third"]?.locationSource == .sidecar)
    }

    @Test("--sidecar-dir mirrors the import folder; hostile and huge sidecars are reported and left alone")
    func folderAndRefusals() throws {
        let sidecars = try TemporaryFolder()
        #expect(try run(["import", photos.url.path, "--sidecar-dir", sidecars.url.path]).status == 0)
        let bare = try #require(try records()["bare"]?.id), third = try #require(try records()["third"]?.id)
        let located = try run([
            "locate", bare, "--at", "46.3625,14.0936", "--sidecars", "write", "--sidecar-dir", sidecars.url.path,
        ])
        #expect(located.status == 0, "\(located.stderr)")
        let mirrored = sidecars.url.appendingPathComponent("2024/bare.jpg.xmp").path
        #expect(FileManager.default.fileExists(atPath: mirrored))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bare.jpg.xmp").path))

        // A bomb beside a photo: the import reports it and goes on; a sidecar over 1 MB: locate reports it,
        // the catalog changes all the same; neither file is touched.
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">&b;</x:xmpmeta>
            """
        let bombPath = folder.appendingPathComponent("third.jpg.xmp")
        try Data(bomb.utf8).write(to: bombPath)
        let imported = try run(["import", photos.url.path, "--report"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("third.jpg.xmp: declares a document type"), "\(imported.stdout)")
        #expect(try String(contentsOf: bombPath, encoding: .utf8) == bomb)
        let large = Data(repeating: 0x20, count: (1 << 20) + 1)
        try large.write(to: bombPath)
        let refused = try run(["locate", third, "--at", "2,2", "--sidecars", "write"])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("larger than 1 MB"), "\(refused.stderr)")
        #expect(try Data(contentsOf: bombPath) == large)
        #expect(try records()["third"]?.coordinate == Coordinate(latitude: 2, longitude: 2))
    }
}

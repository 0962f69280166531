// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `import --gpx` and `geotag` against exiftool itself: photos whose clocks fall around a track's fixes,
/// located by photomap and by `exiftool -geotag` on copies; every photo exiftool locates within 1 m, every
/// one it leaves alone without a location.
@Suite("Geotagging end to end, exiftool the reference", .serialized)
struct GeotagEndToEndTests {
    static let exiftool = "/usr/bin/exiftool"
    /// The zone of photos without OffsetTimeOriginal: summer time (+02:00) in July, +01:00 in January.
    static let zone = "Europe/Ljubljana"

    /// One photo: its DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal, and GPS of its own.
    struct Shot {
        let name: String
        let clock: String
        var subSecond: String? = nil
        var offset: String? = nil
        var own: (Double, Double)? = nil
    }

    /// Times are local (Ljubljana, UTC+2 in July) unless an offset is given; the track runs from 08:00 to
    /// 10:20 UTC with a break between segments at 08:10–08:20 and a gap of 90 minutes after 08:30.
    static let shots = [
        Shot(name: "between", clock: "2024:07:12 10:02:30"),
        Shot(name: "at-a-fix", clock: "2024:07:12 10:05:00"),
        Shot(name: "subsecond", clock: "2024:07:12 10:06:00", subSecond: "5"),
        Shot(name: "own-offset", clock: "2024:07:12 08:07:00", offset: "+00:00"),
        Shot(name: "across-segments", clock: "2024:07:12 10:14:00"),
        Shot(name: "gap-near-a-fix", clock: "2024:07:12 10:45:00"),
        Shot(name: "gap-middle", clock: "2024:07:12 11:20:00"),
        Shot(name: "before-10min", clock: "2024:07:12 09:50:00"),
        Shot(name: "before-2h", clock: "2024:07:12 08:00:00"),
        Shot(name: "after-10min", clock: "2024:07:12 12:30:00"),
        Shot(name: "after-2h", clock: "2024:07:12 14:20:00"),
        Shot(name: "east-offset", clock: "2024:07:12 17:12:00", offset: "+09:00"),
        Shot(name: "winter", clock: "2024:01:12 10:05:00"),
        Shot(name: "own-gps", clock: "2024:07:12 10:05:00", own: (45.8150, 15.9819)),
    ]

    static let track = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="photomap tests" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>morning</name>
            <trkseg>
              <trkpt lat="46.3625" lon="14.0940"><ele>475</ele><time>2024-07-12T08:00:00Z</time></trkpt>
              <trkpt lat="46.3650" lon="14.1000"><time>2024-07-12T08:05:00Z</time></trkpt>
              <trkpt lat="46.3700" lon="14.1050"><time>2024-07-12T08:10:00Z</time></trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="46.3710" lon="14.1100"><time>2024-07-12T08:20:00Z</time></trkpt>
              <trkpt lat="46.3800" lon="14.1200"><time>2024-07-12T08:30:00Z</time></trkpt>
              <trkpt lat="46.4000" lon="14.1500"><time>2024-07-12T10:00:00Z</time></trkpt>
            </trkseg>
          </trk>
          <trk><name>later</name><trkseg>
            <trkpt lat="46.4100" lon="14.1600"><time>2024-07-12T10:10:00Z</time></trkpt>
            <trkpt lat="46.4200" lon="14.1700"><time>2024-07-12T10:20:00Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """

    /// Points photomap skips (exiftool is not given them): a latitude of 200, a time that is none, no time.
    static let badPoints = """
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="200" lon="14"><time>2024-07-12T09:00:00Z</time></trkpt>
        <trkpt lat="46" lon="14"><time>noon</time></trkpt>
        <trkpt lat="46" lon="14"></trkpt>
        </trkseg></trk></gpx>
        """

    let photos: TemporaryFolder
    let copies: TemporaryFolder
    let tracks: TemporaryFolder

    init() throws {
        photos = try TemporaryFolder()
        copies = try TemporaryFolder()
        tracks = try TemporaryFolder()
        for shot in Self.shots {
            var exif = ExifBlock()
            exif.ifd0 = [exif.ascii(0x010F, "HMD Global"), exif.ascii(0x0110, "Nokia 8.3 5G")]
            exif.exif =
                [exif.ascii(0x9003, shot.clock)] + (shot.offset.map { [exif.ascii(0x9011, $0)] } ?? [])
                + (shot.subSecond.map { [exif.ascii(0x9291, $0)] } ?? [])
            if let own = shot.own { exif.setPosition(latitude: own.0, longitude: own.1) }
            let bytes = try ExifJPEG.make(ExifJPEG.quarters(width: 32, height: 32), exif: exif)
            try bytes.write(to: photos.url.appendingPathComponent("\(shot.name).jpg"))
            try bytes.write(to: copies.url.appendingPathComponent("\(shot.name).jpg"))
        }
        try Data(Self.track.utf8).write(to: tracks.url.appendingPathComponent("track.gpx"))
        try Data(Self.badPoints.utf8).write(to: tracks.url.appendingPathComponent("bad.gpx"))
    }

    var trackFile: String { tracks.url.appendingPathComponent("track.gpx").path }
    var badFile: String { tracks.url.appendingPathComponent("bad.gpx").path }

    /// exiftool's positions of the copies after `exiftool -geotag` with `arguments`, by photo name. The
    /// photo's time is SubSecDateTimeOriginal where exiftool makes one (with a sub-second or an offset),
    /// else DateTimeOriginal: exiftool gives no SubSecDateTimeOriginal for a DateTimeOriginal alone.
    func exiftoolPositions(_ arguments: [String]) throws -> [String: (Double, Double)] {
        _ = try Subprocess.output(
            "/usr/bin/env",
            [
                "TZ=\(Self.zone)", Self.exiftool, "-q", "-q", "-overwrite_original", "-geotag", trackFile,
                "-Geotime<DateTimeOriginal", "-Geotime<SubSecDateTimeOriginal",
            ] + arguments + [copies.url.path])
        let json = try Subprocess.output(
            Self.exiftool, ["-n", "-json", "-Composite:GPSLatitude", "-Composite:GPSLongitude", copies.url.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        var positions: [String: (Double, Double)] = [:]
        for row in rows {
            guard let file = row["SourceFile"] as? String, let latitude = row["GPSLatitude"] as? Double,
                let longitude = row["GPSLongitude"] as? Double
            else { continue }
            positions[URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent] = (latitude, longitude)
        }
        return positions
    }

    /// photomap's positions of the photos in a cache folder's catalog, by title (the file's name).
    func photomapPositions(cache: URL) throws -> [String: Coordinate?] {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: cache), readOnly: true)
        return Dictionary(uniqueKeysWithValues: try catalog.allPhotos().map { ($0.title, $0.coordinate) })
    }

    /// Each photo's `locationSource` (nil for JSON null) as `--source local photos --json` gives it, by title.
    func locationSources(cache: URL) throws -> [String: String?] {
        let places = try PhotomapBinary.run(["--cache", cache.path, "--source", "local", "places", "--json"])
        let placeRows = try #require(
            try JSONSerialization.jsonObject(with: Data(places.stdout.utf8)) as? [[String: Any]])
        var sources: [String: String?] = [:]
        for place in placeRows.compactMap({ $0["id"] as? String }) {
            let listed = try PhotomapBinary.run([
                "--cache", cache.path, "--source", "local", "photos", "--place", place, "--json",
            ])
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            for row in rows {
                guard let title = row["title"] as? String else { continue }
                sources[title] = row["locationSource"] as? String
                #expect(row.keys.contains("locationSource"))
            }
        }
        return sources
    }

    /// Metres between two positions (equirectangular: the photos are kilometres apart at most).
    func metres(_ a: Coordinate, _ b: (Double, Double)) -> Double {
        let x = (b.1 - a.longitude) * cos((a.latitude + b.0) / 2 * .pi / 180)
        let y = b.0 - a.latitude
        return (x * x + y * y).squareRoot() * 111_195
    }

    /// Every photo but the one with its own GPS where exiftool puts it, or without a location where
    /// exiftool puts none; returns how many exiftool located.
    func expectSameAsExiftool(_ ours: [String: Coordinate?], _ theirs: [String: (Double, Double)]) -> Int {
        for shot in Self.shots where shot.own == nil {
            let mine = ours[shot.name] ?? nil
            if let reference = theirs[shot.name] {
                #expect(
                    mine.map { metres($0, reference) < 1 } == true,
                    "\(shot.name): \(String(describing: mine)) vs \(reference)")
            } else {
                #expect(
                    mine == nil, "\(shot.name): exiftool left it alone, photomap put it at \(String(describing: mine))")
            }
        }
        return Self.shots.filter { $0.own == nil && theirs[$0.name] != nil }.count
    }

    @Test("import --gpx, then geotag with a clock offset and the zone from TZ: exiftool's answers")
    func matchesExiftool() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.exiftool) else {
            Issue.record("exiftool is not installed (Debian libimage-exiftool-perl): scripts/install-deps installs it")
            return
        }
        // Given photos imported with the tracks and --timezone.
        let cache = try TemporaryFolder()
        let imported = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", "--visibility", "public", photos.url.path, "--gpx", trackFile, "--gpx",
            badFile,
            "--timezone", Self.zone,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let reference = try exiftoolPositions([])
        let located = expectSameAsExiftool(try photomapPositions(cache: cache.url), reference)
        // Both of exiftool's answers are seen: some photos located, some left alone.
        #expect(located > 0 && located < Self.shots.count - 1)
        #expect(
            imported.stderr.hasSuffix(
                "photomap: 14 photos read, \(located + 1) located (1 from their own GPS, \(located) from 3 tracks), "
                    + "\(13 - located) without a location, 3 track points skipped (see --report)\n"),
            "\(imported.stderr)")
        let own = try photomapPositions(cache: cache.url)["own-gps"] ?? nil
        #expect(own.map { metres($0, (45.8150, 15.9819)) < 1 } == true)

        // --json of --source local says where each location came from.
        let sources = try locationSources(cache: cache.url)
        for shot in Self.shots {
            let expected = shot.own != nil ? "exif" : reference[shot.name] != nil ? "track" : nil
            #expect(sources[shot.name] == .some(expected), "\(shot.name): \(String(describing: sources[shot.name]))")
        }

        // Then a fresh import without tracks, located afterwards by `geotag` with a clock offset, the zone
        // from TZ, and the photo files gone: no image is read.
        let later = try TemporaryFolder()
        let plain = try PhotomapBinary.run([
            "--cache", later.url.path, "import", "--visibility", "public", photos.url.path,
        ])
        #expect(plain.status == 0, "\(plain.stderr)")
        for shot in Self.shots {
            try FileManager.default.removeItem(at: photos.url.appendingPathComponent("\(shot.name).jpg"))
        }
        try copiesWithoutGPS()
        let geotagged = try PhotomapBinary.run(
            ["--cache", later.url.path, "geotag", "--gpx", trackFile, "--clock-offset", "-900"],
            environment: ["TZ": Self.zone])
        #expect(geotagged.status == 0, "\(geotagged.stderr)")
        let shifted = try exiftoolPositions(["-geosync=-900"])
        let relocated = expectSameAsExiftool(try photomapPositions(cache: later.url), shifted)
        #expect(relocated > 0)
        // The offset moved the photos exiftool locates both times.
        let moved = Self.shots.filter { shot in
            guard let before = reference[shot.name], let after = shifted[shot.name] else { return false }
            return before != after
        }
        #expect(!moved.isEmpty)
        #expect(
            geotagged.stderr.contains(
                "13 photos without a location, \(relocated) located from 2 tracks (no image read)"),
            "\(geotagged.stderr)")
        // The same run again finds every photo where it is: nothing written, the catalog's version unchanged.
        let version = try LocalCatalog(file: LocalCatalog.file(in: later.url), readOnly: true).version()
        let again = try PhotomapBinary.run(
            ["--cache", later.url.path, "geotag", "--gpx", trackFile, "--clock-offset", "-900"],
            environment: ["TZ": Self.zone])
        #expect(
            again.stderr.contains(
                "\(13 - relocated) photos without a location, 0 located from 2 tracks (no image read)"),
            "\(again.stderr)")
        #expect(try LocalCatalog(file: LocalCatalog.file(in: later.url), readOnly: true).version() == version)

        // Estimates: of the photos still without a location, the one 35 minutes from a located photo of the
        // same camera takes its location; those two hours from any stay without one.
        let estimated = try PhotomapBinary.run(
            [
                "--cache", later.url.path, "geotag", "--gpx", trackFile, "--clock-offset", "-900",
                "--estimate-within", "60",
            ],
            environment: ["TZ": Self.zone])
        #expect(
            estimated.stderr.contains(
                "\(13 - relocated) photos without a location, 0 located from 2 tracks, 1 estimated from neighbours"),
            "\(estimated.stderr)")
        let records = try LocalCatalog(file: LocalCatalog.file(in: later.url), readOnly: true).allPhotos()
        let byTitle = Dictionary(uniqueKeysWithValues: records.map { ($0.title, $0) })
        #expect(records.filter { $0.locationSource == .estimated }.map(\.title) == ["gap-middle"])
        #expect(byTitle["gap-middle"]?.coordinate == byTitle["gap-near-a-fix"]?.coordinate)
        #expect(try locationSources(cache: later.url)["gap-middle"] == .some("estimated"))
    }

    /// The copies exiftool wrote GPS into made anew without it, for another exiftool run.
    func copiesWithoutGPS() throws {
        for shot in Self.shots where shot.own == nil {
            var exif = ExifBlock()
            exif.ifd0 = [exif.ascii(0x010F, "HMD Global"), exif.ascii(0x0110, "Nokia 8.3 5G")]
            exif.exif =
                [exif.ascii(0x9003, shot.clock)] + (shot.offset.map { [exif.ascii(0x9011, $0)] } ?? [])
                + (shot.subSecond.map { [exif.ascii(0x9291, $0)] } ?? [])
            try ExifJPEG.make(ExifJPEG.quarters(width: 32, height: 32), exif: exif)
                .write(to: copies.url.appendingPathComponent("\(shot.name).jpg"))
        }
    }

    @Test("import --gpx takes every track a shell glob gives, before or after its folders, and no folder")
    func globbedTracks() throws {
        // Given the two tracks of one file as two files, as `--gpx ~/tracks/*.gpx` expands.
        let split = try TemporaryFolder()
        let parts = Self.track.components(separatedBy: "<trk>")
        let header = parts[0]
        for (index, part) in parts.dropFirst().enumerated() {
            let body = part.replacingOccurrences(of: "</gpx>", with: "")
            try Data((header + "<trk>" + body + "</gpx>").utf8)
                .write(to: split.url.appendingPathComponent("2024-07-\(12 + index).gpx"))
        }
        let globbed = try FileManager.default.contentsOfDirectory(atPath: split.url.path).sorted()
            .map { split.url.appendingPathComponent($0).path }
        #expect(globbed.count == 2)
        let whole = try TemporaryFolder()
        #expect(
            try PhotomapBinary.run([
                "--cache", whole.url.path, "import", "--visibility", "public", photos.url.path, "--gpx", trackFile,
                "--timezone", Self.zone,
            ]).status == 0)
        let expected = try photomapPositions(cache: whole.url)
        #expect(expected.values.contains { $0 != nil })
        for arguments in [
            [photos.url.path, "--gpx"] + globbed + [badFile],
            ["--gpx"] + globbed + [badFile, photos.url.path],
        ] {
            let cache = try TemporaryFolder()
            let imported = try PhotomapBinary.run(
                ["--cache", cache.url.path, "import", "--visibility", "public"] + arguments + [
                    "--timezone", Self.zone, "--report",
                ])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("14 photos read"), "\(imported.stderr)")
            #expect(imported.stderr.contains(" from 3 tracks)"), "\(imported.stderr)")
            #expect(imported.stderr.contains("3 track points skipped"), "\(imported.stderr)")
            // --report names each point skipped.
            for line in [2, 3, 4] {
                #expect(imported.stdout.contains("\(badFile), line \(line): "), "\(imported.stdout)")
            }
            #expect(try photomapPositions(cache: cache.url) == expected)
        }
        // A word after the tracks that does not end in .gpx is a folder to import, not a track.
        let cache = try TemporaryFolder()
        let folderLast = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", "--visibility", "public", "--gpx", trackFile, tracks.url.path,
            "--report",
        ])
        #expect(folderLast.status == 0, "\(folderLast.stderr)")
        #expect(folderLast.stderr.contains("0 photos read"), "\(folderLast.stderr)")
        #expect(folderLast.stdout.contains("track.gpx: not a JPEG or HEIC photo"), "\(folderLast.stdout)")
        let help = try PhotomapBinary.run(["import", "--visibility", "public", "--help"])
        #expect(help.stdout.contains("--gpx FILE..."), "\(help.stdout)")
    }

    @Test("a track that cannot be read stops the command before anything changes: exit 1, file and line named")
    func badTrack() throws {
        let cache = try TemporaryFolder()
        let broken = tracks.url.appendingPathComponent("broken.gpx")
        try Data("<gpx>\n<trk>\n<trkseg>\n</trk>\n".utf8).write(to: broken)
        let first = try PhotomapBinary.run(
            ["--cache", cache.url.path, "import", "--visibility", "public", photos.url.path, "--gpx", broken.path])
        #expect(first.status == 1)
        #expect(
            first.stderr.contains("photomap: error: \(broken.path), line 4: not well-formed XML"), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: LocalCatalog.file(in: cache.url).path))
        let imported = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", "--visibility", "public", photos.url.path,
        ])
        #expect(imported.status == 0)
        let before = try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true).version()
        for arguments in [["--gpx", broken.path], ["--gpx", tracks.url.appendingPathComponent("none.gpx").path]] {
            let run = try PhotomapBinary.run(["--cache", cache.url.path, "geotag"] + arguments)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains(arguments[1]))
        }
        #expect(try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true).version() == before)
        let usage = try PhotomapBinary.run([
            "--cache", cache.url.path, "geotag", trackFile, "--timezone", "Mars/Olympus",
        ])
        #expect(usage.status == 2)
        #expect(try PhotomapBinary.run(["--cache", cache.url.path, "geotag"]).status == 2)
    }
}

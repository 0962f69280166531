// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Geotagging: GPX tracks read, fixes matched to a photo's clock as exiftool matches them")
struct GeotaggingTests {
    /// 2024-07-12T08:00:00Z.
    static let eight = 1_720_771_200.0

    func write(_ text: String, in folder: TemporaryFolder, name: String = "track.gpx") throws -> String {
        let file = folder.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    @Test("track points of every track and segment are read; waypoints, routes and extensions are not")
    func readsTrackPoints() throws {
        let folder = try TemporaryFolder()
        let path = try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:ext="urn:example">
              <wpt lat="1" lon="1"><time>2024-07-12T08:00:30Z</time></wpt>
              <rte><rtept lat="2" lon="2"><time>2024-07-12T08:00:40Z</time></rtept></rte>
              <trk><name>one</name>
                <trkseg>
                  <trkpt lat="46.3625" lon="14.0940"><ele>480</ele><time>2024-07-12T08:00:00Z</time>
                    <extensions><ext:time>1999-01-01T00:00:00Z</ext:time></extensions></trkpt>
                  <trkpt lat="200" lon="14.1"><time>2024-07-12T08:01:00Z</time></trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="46.3700" lon="14.1000"><time>2024-07-12T10:00:00.5+02:00</time></trkpt>
                  <trkpt lat="46.3800" lon="14.1100"><time>yesterday</time></trkpt>
                  <trkpt lat="46.3900" lon="14.1200"/>
                </trkseg>
              </trk>
              <trk><trkseg><trkpt lat="-0.5" lon="-179.5"><time><![CDATA[2024-07-12T09:00:00]]></time></trkpt></trkseg></trk>
            </gpx>
            """, in: folder)
        let file = try GPXReader.read(path: path)
        #expect(file.trackCount == 2)
        #expect(
            file.fixes == [
                TrackFix(time: Self.eight, latitude: 46.3625, longitude: 14.0940),
                TrackFix(time: Self.eight + 0.5, latitude: 46.37, longitude: 14.1),
                TrackFix(time: Self.eight + 3600, latitude: -0.5, longitude: -179.5),
            ])
        #expect(file.skipped.map(\.line) == [10, 14, 15])
        #expect(file.skipped.map(\.reason).first == "track point skipped: latitude \"200\"")
        #expect(file.skipped.map(\.reason).last == "track point skipped: no time")
        // Each segment is a line of its own on maps.
        #expect(file.segmentStarts == [0, 1, 2])
        #expect(file.segments.map(\.count) == [1, 1, 1])
    }

    @Test("GPX 1.0 is read as 1.1 is")
    func gpx10() throws {
        let folder = try TemporaryFolder()
        let path = try write(
            """
            <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>
            <trkpt lat="10" lon="20"><time>2024-07-12T08:00:00Z</time></trkpt></trkseg></trk></gpx>
            """, in: folder)
        #expect(try GPXReader.read(path: path).fixes == [TrackFix(time: Self.eight, latitude: 10, longitude: 20)])
    }

    @Test("a file that is missing, empty, malformed or not GPX is an error naming the file and line")
    func badFiles() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("none.gpx").path
        #expect(throws: GeotagError.unreadable(path: missing, reason: "No such file or directory")) {
            try GPXReader.read(path: missing)
        }
        let empty = try write("", in: folder, name: "empty.gpx")
        #expect {
            try GPXReader.read(path: empty)
        } throws: { error in
            guard case let .malformed(path, line, _) = error as? GeotagError else { return false }
            return path == empty && line == 1
        }
        let broken = try write("<gpx>\n<trk>\n<trkseg>\n</trk>\n</gpx>\n", in: folder, name: "broken.gpx")
        #expect {
            try GPXReader.read(path: broken)
        } throws: { error in
            guard case let .malformed(_, line, message) = error as? GeotagError else { return false }
            return line == 4 && message.contains("mismatch")
        }
        let kml = try write("<?xml version=\"1.0\"?>\n\n<kml><Document/></kml>", in: folder, name: "doc.gpx")
        #expect(throws: GeotagError.notGPX(path: kml, line: 3, root: "kml")) { try GPXReader.read(path: kml) }
        #expect(throws: GeotagError.self) { try GPXReader.read(path: folder.url.path) }
    }

    @Test("between fixes at most 30 minutes apart: in proportion; across a longer gap: the nearest within 30 minutes")
    func matching() throws {
        let fixes = TrackFixes([
            TrackFix(time: Self.eight, latitude: 46, longitude: 14),
            TrackFix(time: Self.eight + 600, latitude: 47, longitude: 15),
            // A gap of 2 h 30 min.
            TrackFix(time: Self.eight + 9600, latitude: 48, longitude: 16),
            TrackFix(time: Self.eight + 9600, latitude: 49, longitude: 17),
        ])
        #expect(fixes.count == 3)
        #expect(fixes.location(at: Self.eight + 150) == Coordinate(latitude: 46.25, longitude: 14.25))
        #expect(fixes.location(at: Self.eight + 600) == Coordinate(latitude: 47, longitude: 15))
        // In the gap: 10 minutes after a fix, 20 minutes before the last one (of two at one time, the later).
        #expect(fixes.location(at: Self.eight + 1200) == Coordinate(latitude: 47, longitude: 15))
        #expect(fixes.location(at: Self.eight + 8400) == Coordinate(latitude: 49, longitude: 17))
        #expect(fixes.location(at: Self.eight + 5000) == nil)
        // Before and after the track: 10 minutes, 2 hours.
        #expect(fixes.location(at: Self.eight - 600) == Coordinate(latitude: 46, longitude: 14))
        #expect(fixes.location(at: Self.eight + 9600 + 600) == Coordinate(latitude: 49, longitude: 17))
        #expect(fixes.location(at: Self.eight - 7200) == nil)
        #expect(fixes.location(at: Self.eight + 9600 + 7200) == nil)
        // --max-gap changes both limits.
        #expect(fixes.location(at: Self.eight + 5000, maximumGap: 9000) != nil)
        #expect(fixes.location(at: Self.eight - 600, maximumGap: 300) == nil)
        #expect(TrackFixes([]).location(at: Self.eight) == nil)
        // Across the antimeridian the short way.
        let pacific = TrackFixes([
            TrackFix(time: 0, latitude: 0, longitude: 179), TrackFix(time: 100, latitude: 0, longitude: -179),
        ])
        #expect(abs((pacific.location(at: 25)?.longitude ?? 0) - 179.5) < 1e-9)
        #expect(abs((pacific.location(at: 75)?.longitude ?? 0) + 179.5) < 1e-9)
    }

    @Test("a photo's time: its own offset, else the zone's for that date (summer time), plus the clock offset")
    func photoClock() throws {
        let summer = try #require(PhotoClock(local: "2024-07-12 10:00:00", subSecond: "25", utcOffsetSeconds: nil))
        let winter = try #require(PhotoClock(local: "2024-01-12 09:00:00", subSecond: nil, utcOffsetSeconds: nil))
        let ljubljana = try #require(PhotoClock.zone(named: "Europe/Ljubljana"))
        #expect(summer.instant(zone: ljubljana) == Self.eight + 0.25)
        #expect(winter.instant(zone: ljubljana) == Self.eight - 182 * 86_400)
        let fixed = try #require(PhotoClock.zone(named: "-05:30"))
        #expect(summer.instant(zone: fixed, clockOffset: -75) == Self.eight + 2 * 3600 + 5.5 * 3600 + 0.25 - 75)
        let own = try #require(PhotoClock(local: "2024-07-12 11:00:00", subSecond: "x", utcOffsetSeconds: 3 * 3600))
        #expect(own.instant(zone: ljubljana) == Self.eight)
        #expect(PhotoClock(local: "2024-02-30 11:00:00", subSecond: nil, utcOffsetSeconds: nil) == nil)
        #expect(PhotoClock.zone(named: "Mars/Olympus") == nil)
        #expect(PhotoClock.zone(named: "+2") == nil)
        #expect(GPXTime.seconds("2024-07-12T08:00:00Z") == Self.eight)
        #expect(GPXTime.seconds("2024-07-12T08:00:00.125-01:00") == Self.eight + 3600.125)
        #expect(GPXTime.seconds("2024-07-12 08:00:00Z") == nil)
        #expect(GPXTime.seconds("2024-07-12T08:00:00Zjunk") == nil)
    }
}

@Suite("Geotagging: the catalog keeps clocks and cameras")
struct GeotaggingCatalogTests {
    @Test("a catalog made before clocks were kept gains their columns when opened for writing")
    func migration() throws {
        let folder = try TemporaryFolder()
        let file = LocalCatalog.file(in: folder.url)
        let columns = ["clock", "subsecond", "clock_offset", "make", "model", "location_source"]
        func names() throws -> Set<String> {
            let database = try SQLiteDatabase(path: file.path, readOnly: true)
            let rows = try database.prepare("SELECT name FROM pragma_table_info('photos')")
            var names: Set<String> = []
            while try rows.step() { names.insert(rows.text(0)) }
            return names
        }
        _ = try LocalCatalog(file: file)
        #expect(try names().isSuperset(of: columns))
        // Given the photos table as it was before: without them.
        let old = try SQLiteDatabase(path: file.path, readOnly: false)
        for column in columns { try old.execute("ALTER TABLE photos DROP COLUMN \(column)") }
        #expect(try names().isDisjoint(with: columns))
        _ = try LocalCatalog(file: file, readOnly: true)
        #expect(try names().isDisjoint(with: columns))
        _ = try LocalCatalog(file: file)
        #expect(try names().isSuperset(of: columns))
    }
}

@Suite("Geotagging: estimates from the same camera's neighbours")
struct EstimateTests {
    /// A catalog of photos taken on 2024-07-12 (UTC) at `minute` past 08:00 with `camera`, located where given.
    func catalog(
        _ shots: [(id: String, minute: Int, camera: String, at: Coordinate?)], in folder: TemporaryFolder
    ) throws -> LocalCatalog {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        catalog.audiences = Audience.seen(by: .owner)  // its owner's view: every photo
        var changes = LocalCatalogChanges()
        for (index, shot) in shots.enumerated() {
            var fields = ExifFields()
            fields.coordinate = shot.at
            fields.clock = PhotoClock(
                local: String(format: "2024-07-12 %02d:%02d:00", 8 + shot.minute / 60, shot.minute % 60),
                subSecond: nil, utcOffsetSeconds: 0)
            fields.make = "Maker"
            fields.model = shot.camera
            let photo = LocalPhoto.record(
                id: shot.id, fields: fields, fileName: Array(shot.id.utf8), mediumSize: (1, 1))
            changes.photos.append((photo, LocalPlace.unlocated, nil))
            changes.captures[shot.id] = PhotoCapture(fields)
            var state = LocalFileState(size: 1, modified: 1, inode: Int64(index))
            state.photo = shot.id
            changes.files.append((Array(shot.id.utf8), state))
        }
        _ = try catalog.apply(changes)
        return catalog
    }

    @Test(
        "the same camera's nearest located photo within the limit; another camera's, an estimate or a farther one never"
    )
    func estimates() throws {
        let folder = try TemporaryFolder()
        let here = try #require(Coordinate(latitude: 46.37, longitude: 14.11))
        let there = try #require(Coordinate(latitude: 45.81, longitude: 15.98))
        let catalog = try catalog(
            [
                ("a-located", 0, "A", here), ("b-located", 9, "B", there), ("a-near", 8, "A", nil),
                ("a-chained", 15, "A", nil), ("a-far", 40, "A", nil), ("c-alone", 1, "C", nil),
            ], in: folder)
        let places = try LocalPlaces(
            gazetteer: try #require(FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv"))
                .appendingPathComponent("gazetteer"))
        let tracks = try Tracks(reading: [])
        let report = try PhotoGeotagger(tracks: tracks, estimateWithin: 10 * 60).run(on: catalog) { places }
        #expect(report.estimated == ["a-near"])
        #expect(report.unlocatedBefore == 4)
        let photos = Dictionary(uniqueKeysWithValues: try catalog.allPhotos().map { ($0.id, $0) })
        #expect(photos["a-near"]?.coordinate == here)
        #expect(photos["a-near"]?.locationSource == .estimated)
        // What its callout and page say: "a-located" was taken 8 minutes before it.
        #expect(photos["a-near"]?.estimateOffset == -480)
        #expect(photos["a-near"]?.locationNote == "estimated from a photo taken 8 minutes earlier")
        #expect(photos["a-located"]?.locationNote == nil)
        // 15 minutes from "a-located", 7 from the estimate "a-near": estimates do not chain.
        #expect(photos["a-chained"]?.coordinate == nil)
        #expect(photos["a-far"]?.coordinate == nil)
        #expect(photos["c-alone"]?.coordinate == nil)
        #expect(photos["a-located"]?.locationSource == .exif)
        // Run again: nothing moves, nothing is written.
        let version = try catalog.version()
        let again = try PhotoGeotagger(tracks: tracks, estimateWithin: 10 * 60).run(on: catalog) { places }
        #expect(again.estimated.isEmpty && again.relocated == 0)
        #expect(try catalog.version() == version)
    }

    @Test("after geotagging, only the photos that moved are indexed again, when the index was current")
    func indexedIncrementally() throws {
        let folder = try TemporaryFolder()
        let here = try #require(Coordinate(latitude: 46.37, longitude: 14.11))
        let catalog = try catalog(
            [("a-located", 0, "A", here), ("a-near", 8, "A", nil), ("a-far", 40, "A", nil)], in: folder)
        let index = try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite"))
        let indexer = CatalogIndexer(index: index)
        try indexer.ensureLocal(catalog)
        // A record no full indexing would keep: it stays only if the index is not made anew.
        try index.add(
            [IndexRecord.photo(AnnotationAdapter().annotated(Photo(id: "elsewhere", title: "x")))], origin: "local")
        let before = try catalog.version()
        let places = try LocalPlaces(
            gazetteer: try #require(FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv"))
                .appendingPathComponent("gazetteer"))
        let report = try PhotoGeotagger(tracks: try Tracks(reading: []), estimateWithin: 10 * 60).run(on: catalog) {
            places
        }
        #expect(report.changedPhotos.map(\.id) == ["a-near"])
        #expect(report.changedPhotos.first?.coordinate == here)
        try indexer.ensureLocal(catalog, changed: report.changedPhotos, since: before)
        #expect(try index.marker("local") == String(try catalog.version()))
        #expect(try index.photo(id: "a-near")?.coordinate == here)
        #expect(try index.photo(id: "elsewhere") != nil, "the index was not made anew")
        let near = try index.search("a-near", near: here, radiusKilometres: 1, limit: 10)
        #expect(near.map(\.annotation.id) == ["a-near"])
        // An index behind the catalog is made anew.
        try index.setMarker("local", "stale")
        try indexer.ensureLocal(catalog, changed: [], since: before)
        #expect(try index.photo(id: "elsewhere") == nil)
        #expect(try index.marker("local") == String(try catalog.version()))
    }

    @Test(
        "what a page says of a location: from a track, or estimated from a photo so many minutes or hours away",
        arguments: [
            (LocationSource.track, nil, "located from a track"),
            (.estimated, -240, "estimated from a photo taken 4 minutes earlier"),
            (.estimated, 61, "estimated from a photo taken 1 minute later"),
            (.estimated, 29, "estimated from a photo taken 29 seconds later"),
            (.estimated, 0, "estimated from a photo taken at the same time"),
            (.estimated, -7_200, "estimated from a photo taken 2 hours earlier"),
            (.estimated, nil, "estimated from a photo taken near in time"),
        ] as [(LocationSource, Int?, String)])
    func notes(source: LocationSource, offset: Int?, note: String) {
        var photo = Photo(id: "p")
        photo.locationSource = source
        photo.estimateOffset = offset
        #expect(photo.locationNote == note)
        #expect(AnnotationAdapter().annotation(for: photo).locationNote == note)
    }
}

@Suite("Geotagging: tracks drawn on maps")
struct TrackDrawingTests {
    func point(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try #require(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test("a page draws the part of the lines around its photos, one point past each edge")
    func clipped() throws {
        // A line west to east through the photos at 46°N, 14.0–14.1°E, and one far away.
        let line = try (0...40).map { try point(46.0, 13.8 + Double($0) * 0.01) }
        let far = [try point(10, 10), try point(10.1, 10.1)]
        let tracks = TrackLines([line, far, [try point(46, 14)]])
        #expect(tracks.lines.count == 2, "a line of one point draws nothing")
        let drawing = try #require(tracks.drawing(around: [try point(46.0, 14.005), try point(46.01, 14.095)]))
        // The box is 14.005–14.095 widened by 0.03°: 13.975–14.125, so 13.97 and 14.13 run past it.
        #expect(drawing.lines.count == 1)
        let numbers = try #require(drawing.lines.first)
        #expect(numbers.count / 2 == 17)
        #expect(numbers.prefix(2) == [4_600_000, 1_397_000])
        #expect(
            numbers.dropFirst(2).enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element == 0 : $0.element == 1_000 })
        // A long line: the same part, across the stretches the lines are looked into by.
        let long = try (0...1_000).map { try point(46.0, 13.0 + Double($0) * 0.002) }
        let part = try #require(
            TrackLines([long]).drawing(around: [try point(46.0, 14.005), try point(46.01, 14.095)])?.lines.first)
        #expect(part.count / 2 == 77)
        #expect(part.prefix(2) == [4_600_000, 1_397_400])
        #expect(tracks.drawing(around: [try point(-30, 100)]) == nil)
        #expect(tracks.drawing(around: []) == nil)
    }

    @Test("a 100,000-point track is simplified to 2,000 points a page, its turns kept, in about 20 kB")
    func simplified() throws {
        // East for 50,000 points, then north: the corner must stay.
        var line: [Coordinate] = []
        for index in 0..<100_000 {
            let wobble = Double(index % 7) * 1e-6
            line.append(
                index < 50_000
                    ? try point(46 + wobble, 14 + Double(index) * 1e-5)
                    : try point(46 + Double(index - 50_000) * 1e-5, 14.5 + wobble))
        }
        let tracks = TrackLines([line])
        let drawing = try #require(tracks.drawing(around: [try point(46, 14), try point(46.5, 14.5)]))
        #expect(drawing.pointCount <= TrackLines.pointsPerPage && drawing.pointCount > 1_000)
        var (latitude, longitude) = (0, 0)
        var points: [(Int, Int)] = []
        for pair in stride(from: 0, to: drawing.lines[0].count, by: 2) {
            latitude += drawing.lines[0][pair]
            longitude += drawing.lines[0][pair + 1]
            points.append((latitude, longitude))
        }
        #expect(points.first.map { $0 == (4_600_000, 1_400_000) } == true)
        #expect(points.last.map { $0 == (4_649_999, 1_450_000) } == true)
        // The corner, to a few micro-degrees of wobble.
        #expect(points.contains { abs($0.0 - 4_600_000) <= 1 && abs($0.1 - 1_450_000) <= 1 }, "the corner")
        var json = ScriptJSON(capacity: 1 << 16)
        drawing.write(to: &json)
        #expect(json.text.utf8.count < 20_000, "\(json.text.utf8.count) bytes")
        #expect(json.text == (try HTML.scriptJSON(drawing)))
    }

    @Test("the catalog keeps each line once, in the order given, and gives them back")
    func kept() throws {
        let folder = try TemporaryFolder()
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        #expect(try catalog.trackLines().isEmpty)
        let first = [try point(46.1, 14.1), try point(46.2, -14.2)]
        let second = [try point(-33.8688, 151.2093), try point(-33.87, 151.21), try point(-33.88, 151.22)]
        try catalog.keep(TrackLines([first, second]))
        // New lines move the version on (a running serve draws them); the same lines again do not.
        #expect(try catalog.version() == 1)
        try catalog.keep(TrackLines([second, first]))
        #expect(try catalog.trackLines() == TrackLines([first, second]))
        #expect(try catalog.version() == 1)
    }
}

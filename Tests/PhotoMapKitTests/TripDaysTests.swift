// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The rows of the days (`trip_days`, on SQLite and PostgreSQL) the catalog keeps as photos are written:
/// after records, a bulk load, file imports, a photo replaced, location edits, removals, fences and
/// audiences, the rows are what the photos make of them from scratch, and the trips and home found from
/// them are those found from every photo, for the owner and for others, whatever home, away distance and
/// gap; a viewer's rows hold nothing of what the viewer may not see.
@Suite("Trip days: the rows kept as photos change give the trips found from scratch")
struct TripDaysTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static let ljubljana = LocalPlace(
        id: "3196359", shortName: "Ljubljana", fullName: "Ljubljana, Ljubljana, Slovenia",
        coordinate: Coordinate(latitude: 46.0511, longitude: 14.5051))
    /// A second place of the same name: a town's country and centre are those of its place photographed last.
    static let ljubljanaAgain = LocalPlace(
        id: "3196360", shortName: "Ljubljana", fullName: "Ljubljana, Ljubljana, Slovenia",
        coordinate: Coordinate(latitude: 46.06, longitude: 14.51))
    static let florence = LocalPlace(
        id: "3176959", shortName: "Florence", fullName: "Florence, Tuscany, Italy",
        coordinate: Coordinate(latitude: 43.7792, longitude: 11.2463))
    static let trieste = LocalPlace(
        id: "3165185", shortName: "Trieste", fullName: "Trieste, Friuli Venezia Giulia, Italy",
        coordinate: Coordinate(latitude: 45.6495, longitude: 13.7768))
    static let styria = LocalPlace(
        id: "region_styria", shortName: "Styria", fullName: "Styria, Slovenia", coordinate: nil)
    static let malta = LocalPlace(id: "country_mt", shortName: "Malta", fullName: "Malta", coordinate: nil)

    /// Where the photo `k` of a kind of day is: home, Florence, Trieste (an hour away, in Italy), north
    /// across the away distance (a box that straddles 50 km, its photos all beyond it), Malta, or nowhere.
    static func spot(_ kind: Int, _ k: Int) -> (LocalPlace, Coordinate?) {
        let home = ljubljana.coordinate, offset = Double(k) * 0.004
        switch kind {
        case 0, 1, 2: return (k == 1 ? ljubljanaAgain : ljubljana, home.flatMap { shifted($0, offset, -offset) })
        case 3, 4, 5: return (florence, florence.coordinate.flatMap { shifted($0, offset, offset) })
        case 6: return (trieste, trieste.coordinate.flatMap { shifted($0, -offset, offset) })
        case 7: return (styria, home.flatMap { k == 0 ? shifted($0, 0.46, 0) : shifted($0, 0.8, 1.0) })
        case 8: return (malta, Coordinate(latitude: 35.9 + offset, longitude: 14.5))
        default: return (.unlocated, nil)
        }
    }

    static func shifted(_ point: Coordinate, _ north: Double, _ east: Double) -> Coordinate? {
        Coordinate(latitude: point.latitude + north, longitude: point.longitude + east)
    }

    /// Four photos a day over 56 days, the kind of day turning over every ten, the fourth of each
    /// without a location and every thirteenth without a time taken.
    static func records(days: Range<Int> = 0..<56, kinds: (Int) -> Int = { $0 % 10 }) -> [RecordPhoto] {
        days.flatMap { day in
            (0..<4).map { k in
                let number = day * 4 + k
                let (place, coordinate) = k == 3 ? (.unlocated, nil) : spot(kinds(day), k)
                let taken =
                    number % 13 == 5
                    ? nil : String(format: "2021-%02d-%02d %02d:15:00", 1 + day / 28, 1 + day % 28, 8 + k)
                return RecordPhoto(
                    PhotoRecord(
                        sourceID: "d\(number)", title: "Photo \(number)", taken: taken, coordinate: coordinate,
                        image: .url("http://127.0.0.1:9/\(number).jpg")),
                    place: coordinate == nil ? .unlocated : place)
            }
        }
    }

    /// The viewers compared: the owner as `trips` reads (fenced photos where they were taken), the
    /// owner as pages show photos, anyone, and a friend.
    static let viewers: [(String, Bool, Set<Audience>)] = [
        ("owner", true, Set(Audience.allCases)), ("owner's pages", false, Set(Audience.allCases)),
        ("anyone", false, Audience.seen(by: nil)), ("a friend", false, Audience.seen(by: .friend)),
    ]

    /// How many rows `trip_days` and the rows the photos make from scratch hold apart, both ways.
    static func differingRows(_ store: any LocalCatalogStore) throws -> Int {
        switch store {
        case let catalog as LocalCatalog:
            let all = LocalCatalog.tripDaysQuery(where: "date_taken IS NOT NULL")
            var apart = 0
            for (first, second) in [("SELECT * FROM trip_days", all), (all, "SELECT * FROM trip_days")] {
                let differing = try catalog.database.prepare("SELECT count(*) FROM (\(first) EXCEPT \(second))")
                apart += try differing.step() ? Int(differing.integer(0) ?? -1) : -1
            }
            return apart
        case let catalog as PostgresLocalCatalog:
            let all = PostgresLocalCatalog.tripDaysQuery()
            return try catalog.pool.withConnection { connection in
                try connection.execute(
                    """
                    SELECT count(*) FROM ((SELECT * FROM trip_days EXCEPT \(all))
                        UNION ALL (\(all) EXCEPT SELECT * FROM trip_days)) d
                    """
                ).integer(0, 0) ?? -1
            }
        default:
            Issue.record("no trip_days on \(type(of: store))")
            return -1
        }
    }

    /// Checks the rows against the photos, then home and the trips from both, for every viewer.
    static func expectSame(_ store: any LocalCatalogStore, _ label: String) throws {
        #expect(try differingRows(store) == 0, "\(label): rows apart from the photos'")
        var found = 0
        var catalog = store
        for (viewer, showsFenced, audiences) in viewers {
            catalog.showsFenced = showsFenced
            catalog.audiences = audiences
            let photos = try catalog.tripPhotos()
            let days = try #require(try catalog.tripDays())
            let label = "\(label), \(viewer)"
            #expect(Home.mostDays(days) == Home.mostDays(photos), "\(label): home")
            var homes = [Home.mostDays(photos)].compactMap { $0 }
            for place in [ljubljana, florence] {
                let centre = try #require(place.coordinate)
                homes += [
                    Home(coordinate: centre, name: "here", country: nil), Home.at(centre, photos: photos, reach: 50),
                ]
            }
            for home in homes {
                for away in [50.0, 10, 400] {
                    for gap in [0, 2] {
                        let finder = TripFinder(home: home, awayKilometres: away, gapDays: gap)
                        let fromScratch = finder.trips(photos)
                        let fromRows = try finder.trips(days, photos: catalog.tripPhotos(in:))
                        #expect(
                            fromRows == fromScratch,
                            "\(label), home \(home.name) \(home.country ?? "-"), \(away) km, gap \(gap): \(fromRows.count) and \(fromScratch.count) trips"
                        )
                        found += fromScratch.count
                    }
                }
            }
        }
        #expect(found > 0, "\(label): trips to compare")
    }

    @Test(
        "records, a bulk load, files, a replaced photo, location edits, removals, fences and audiences: rows as from scratch",
        arguments: StateEngine.allCases)
    func rowsFollowEveryChange(engine: StateEngine) throws {
        let catalog = try engine.place(in: folder.url).stores().localCatalogForImport()
        let records = Self.records()
        _ = try catalog.keepRecords(records)
        try Self.expectSame(catalog, "records")

        // Some again: re-dated, moved home (an away day turned home), without a location.
        var again = Array(records[12..<24])
        again[0].photo.dateTaken = "2021-01-20 09:00:00"
        again[1].photo.coordinate = Self.ljubljana.coordinate
        again[1].place = Self.ljubljana
        again[1].photo.placeID = Self.ljubljana.id
        again[2].photo.coordinate = nil
        again[2].photo.placeID = LocalPlace.unlocated.id
        again[2].place = .unlocated
        _ = try catalog.keepRecords(again)
        try Self.expectSame(catalog, "records again")
        // A bulk load: the rest of the year in one batch, the days of the first records among them again.
        _ = try catalog.keepRecords(Self.records(days: 40..<336, kinds: { $0 % 7 }))
        try Self.expectSame(catalog, "a bulk load")

        // A file import: two photos at home on an away day, then one of them replaced on another day.
        func file(_ id: String, _ taken: String, _ place: LocalPlace, _ inode: Int64) -> LocalCatalogChanges {
            var changes = LocalCatalogChanges()
            changes.privacy = PhotoPrivacy(visibility: .public)
            let photo = Photo(id: id, title: id, dateTaken: taken, coordinate: place.coordinate, placeID: place.id)
            changes.photos.append((photo, place, nil))
            var state = LocalFileState(size: 1, modified: inode, inode: inode)
            state.photo = id
            changes.files.append((Array(id.utf8), state))
            return changes
        }
        _ = try catalog.apply(file("local-1", "2021-01-05 12:00:00", Self.ljubljana, 1))
        _ = try catalog.apply(file("local-2", "2021-01-06 12:00:00", Self.ljubljana, 2))
        try Self.expectSame(catalog, "files")
        _ = try catalog.apply(file("local-1", "2021-01-16 12:00:00", Self.florence, 3))
        try Self.expectSame(catalog, "a photo replaced")

        // Location edits: a Florence photo moved home, another to nowhere, a home one to Trieste.
        let ids = records.map(\.photo.id)
        _ = try catalog.locate([
            LocatedPhoto(
                id: ids[4 * 14], coordinate: Self.ljubljana.coordinate, place: Self.ljubljana, source: nil,
                estimateOffset: nil),
            LocatedPhoto(id: ids[4 * 15 + 1], coordinate: nil, place: .unlocated, source: nil, estimateOffset: nil),
            LocatedPhoto(
                id: ids[4 * 20], coordinate: Self.trieste.coordinate, place: Self.trieste, source: nil,
                estimateOffset: nil),
        ])
        try Self.expectSame(catalog, "location edits")

        // A removal: the file of a photo gone, and its photo with it.
        var gone = LocalCatalogChanges()
        gone.gone = [Array("local-2".utf8)]
        #expect(try catalog.apply(gone) == 1)
        try Self.expectSame(catalog, "a removal")

        // Fences: home's, then one over Florence, then that one removed.
        let home = try #require(Self.ljubljana.coordinate), away = try #require(Self.florence.coordinate)
        try catalog.add(Geofence(name: "home", centre: home, radius: 2_000))
        try Self.expectSame(catalog, "a home fence")
        try catalog.add(Geofence(name: "hotel", centre: away, radius: 1_000))
        try Self.expectSame(catalog, "a second fence")
        try catalog.removeFence(named: "hotel")
        try Self.expectSame(catalog, "a fence removed")

        // Audiences: some private, some shown to friends only where they were taken.
        try catalog.setPrivacy(PhotoPrivacy(visibility: .private), of: [ids[4 * 33], ids[4 * 34 + 1], ids[4 * 40]])
        try catalog.setPrivacy(
            try #require(PhotoPrivacy(visibility: .public, location: .friends)), of: (4 * 43..<4 * 46).map { ids[$0] })
        try Self.expectSame(catalog, "audiences")
    }

    @Test("a catalog made before the rows: filled when opened to write, read from its photos when opened to read")
    func catalogBeforeTheRows() throws {
        let file = LocalCatalog.file(in: folder.url)
        let catalog = try LocalCatalog(file: file)
        _ = try catalog.keepRecords(Self.records())
        // The table dropped by hand, its triggers left behind: the next writer makes them all again.
        try catalog.database.execute("DROP TABLE trip_days; DROP INDEX photos_day")
        let reader = try LocalCatalog(file: file, readOnly: true)
        #expect(try reader.tripDays() == nil)
        let dates = "2021-01-05"..."2021-01-09"
        #expect(
            try reader.tripPhotos(in: [dates]).map(\.id).sorted()
                == reader.tripPhotos().filter { dates.contains($0.date) }.map(\.id).sorted())

        let opened = try LocalCatalog(file: file)
        try Self.expectSame(opened, "filled")
        // The triggers are back: a change keeps the rows.
        _ = try opened.keepRecords(Self.records(days: 3..<9, kinds: { _ in 4 }))
        try Self.expectSame(opened, "changed after the fill")
    }

    @Test(
        "a viewer's rows and photos hold nothing of the photos it may not see, nor where those hidden from it were",
        arguments: StateEngine.allCases)
    func viewersSeeOnlyTheirs(engine: StateEngine) throws {
        var catalog = try engine.place(in: folder.url).stores().localCatalogForImport()
        let records = Self.records(days: 0..<10)
        _ = try catalog.keepRecords(records)
        let ids = records.map(\.photo.id)
        // Day 4 (2021-01-04, in Florence) private; day 6 (Florence) located for friends only; home fenced.
        try catalog.setPrivacy(PhotoPrivacy(visibility: .private), of: Array(ids[12..<16]))
        try catalog.setPrivacy(
            try #require(PhotoPrivacy(visibility: .public, location: .friends)), of: Array(ids[20..<24]))
        try catalog.add(Geofence(name: "home", centre: try #require(Self.ljubljana.coordinate), radius: 2_000))
        let year = "2021-01-01"..."2021-12-31"
        for (viewer, showsFenced, audiences) in Self.viewers {
            catalog.showsFenced = showsFenced
            catalog.audiences = audiences
            let days = try #require(try catalog.tripDays())
            let photos = try catalog.tripPhotos(in: [year])
            let owner = audiences == Set(Audience.allCases), friend = audiences.contains(.friends)
            #expect(days.contains { $0.text == "2021-01-04" } == owner, "\(viewer): a private day")
            #expect(photos.contains { ids[12..<16].contains($0.id) } == owner, "\(viewer): a private day's photos")
            let friends = days.filter { $0.text == "2021-01-06" && $0.place == Self.florence.id }
            #expect(!friends.isEmpty, "\(viewer): a day located for friends")
            #expect(
                friends.allSatisfy {
                    ($0.located > 0) == friend && ($0.box != nil) == friend && ($0.names != nil) == friend
                },
                "\(viewer): where a day located for friends was")
            #expect(
                photos.filter { ids[20..<23].contains($0.id) }.allSatisfy { ($0.coordinate == nil) != friend },
                "\(viewer): where a day located for friends' photos were")
            let fenced = days.filter { ["2021-01-01", "2021-01-02", "2021-01-03"].contains($0.text) }
            #expect(fenced.contains { $0.located > 0 } == showsFenced, "\(viewer): where fenced days were")
            #expect(
                photos.contains { ids[0..<12].contains($0.id) && $0.coordinate != nil } == showsFenced,
                "\(viewer): where fenced days' photos were")
        }
    }

    @Test("a PostgreSQL catalog migrated before the rows: filled by the migration, then kept")
    func postgresCatalogBeforeTheRows() throws {
        let place = try StateEngine.postgres.place(in: folder.url)
        let database = try #require(place.database)
        let store = try place.stores().localCatalogForImport()
        let records = Self.records()
        _ = try store.keepRecords(records)
        try store.add(Geofence(name: "home", centre: try #require(Self.ljubljana.coordinate), radius: 2_000))
        try store.setPrivacy(PhotoPrivacy(visibility: .private), of: records[40..<60].map(\.photo.id))
        // The catalog as the photomap before the rows left it.
        try TestDatabase.psql(
            database.url,
            """
            \(TestDatabase.withoutTripDays)
            DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.tripDaysVersion)
            """)
        let pool = try database.pool()
        #expect(try DatabaseSchema.migrate(pool).first == DatabaseSchema.tripDaysVersion)
        let migrated = PostgresLocalCatalog(pool: pool)
        try Self.expectSame(migrated, "filled")
        _ = try migrated.keepRecords(Self.records(days: 3..<9, kinds: { _ in 4 }))
        try Self.expectSame(migrated, "changed after the fill")
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// What trips and `visited` read of each photo (`tripPhotos`: from the columns, the time taken from its
/// own column, on SQLite and PostgreSQL) is what the whole records and the places make of it
/// (`TripPhoto.photos`), for the owner and for others, after records, a file import, re-dated and
/// unlocated photos, a fence and an audience; a catalog made before the column of the time taken reads
/// the same; and home is a town's own centre on both engines, even where a fence covers it.
@Suite("Trip photos: read from the columns as the records make them")
struct TripPhotosTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static let places = [
        LocalPlace(
            id: "3196359", shortName: "Ljubljana", fullName: "Ljubljana, Ljubljana, Slovenia",
            coordinate: Coordinate(latitude: 46.0511, longitude: 14.5051)),
        LocalPlace(
            id: "3176959", shortName: "Florence", fullName: "Florence, Tuscany, Italy",
            coordinate: Coordinate(latitude: 43.7792, longitude: 11.2463)),
        LocalPlace(id: "region_tuscany", shortName: "Tuscany", fullName: "Tuscany, Italy", coordinate: nil),
        LocalPlace(id: "country_mt", shortName: "Malta", fullName: "Malta", coordinate: nil),
    ]

    /// `count` records: a place each in turn (every fifth without a location), every seventh without a
    /// time taken, times across midnight and the years.
    static func records(_ count: Int, day: Int = 1) -> [RecordPhoto] {
        (0..<count).map { number in
            let place = places[number % places.count]
            let located = number % 5 != 4
            let centre = place.coordinate ?? Coordinate(latitude: 43.3, longitude: 11.3)
            let coordinate =
                located
                ? Coordinate(
                    latitude: (centre?.latitude ?? 0) + Double(number % 9) * 0.001,
                    longitude: (centre?.longitude ?? 0) - Double(number % 7) * 0.001) : nil
            let taken =
                number % 7 == 3
                ? nil : String(format: "%04d-12-%02d %02d:30:00", 2020 + number % 3, day + number % 20, number % 24)
            return RecordPhoto(
                PhotoRecord(
                    sourceID: "r\(number)", title: "Record \(number)", taken: taken, coordinate: coordinate,
                    image: .url("http://127.0.0.1:9/\(number).jpg")),
                place: located ? place : .unlocated)
        }
    }

    /// Checks `tripPhotos` against the records and places, as the owner and as anyone sees them.
    static func expectSame(_ store: any LocalCatalogStore, _ label: String) throws {
        for (showsFenced, audiences) in [(true, Set(Audience.allCases)), (false, Audience.seen(by: nil))] {
            var view = store
            view.showsFenced = showsFenced
            view.audiences = audiences
            // A town's centre inside a fence: SQLite's columns give the gazetteer's, `places()` the one
            // others are shown (its photos' mean, `shownCentre`); home is never shown to others either way.
            func compared(_ photos: [TripPhoto]) -> [TripPhoto] {
                photos.sorted { $0.id < $1.id }.map { photo in
                    var photo = photo
                    if !showsFenced { photo.townCentre = nil }
                    return photo
                }
            }
            let read = compared(try view.tripPhotos())
            let made = compared(TripPhoto.photos(try view.allPhotos(), places: try view.places()))
            let differing = zip(read, made).first { $0 != $1 }
            #expect(
                read.count == made.count && differing == nil,
                "\(label), \(audiences.count) audiences: \(read.count) and \(made.count); \(String(describing: differing))"
            )
            #expect(!read.isEmpty)
        }
    }

    @Test(
        "records, a file import, edits, a fence and an audience: the columns read as the records",
        arguments: StateEngine.allCases)
    func columnsReadAsRecords(engine: StateEngine) throws {
        let store = try engine.place(in: folder.url).stores().localCatalogForImport()
        let ids = Self.records(120).map(\.photo.id)
        #expect(try store.keepRecords(Self.records(120)).count == 120)
        try Self.expectSame(store, "records")

        // Some again, re-dated (one to no time at all) and unlocated.
        var again = Self.records(30, day: 5)
        again[0].photo.dateTaken = nil
        again[1].photo.coordinate = nil
        again[1].photo.placeID = LocalPlace.unlocated.id
        again[1].place = .unlocated
        _ = try store.keepRecords(again)
        // A file import beside them.
        var changes = LocalCatalogChanges()
        changes.privacy = PhotoPrivacy(visibility: .public)
        for number in 0..<6 {
            let id = "local-\(number)"
            let photo = Photo(
                id: id, title: id, dateTaken: number == 5 ? nil : "2024-07-1\(number) 23:59:00",
                coordinate: Coordinate(latitude: 43.78, longitude: 11.25), placeID: Self.places[1].id)
            changes.photos.append((photo, Self.places[1], nil))
            var state = LocalFileState(size: 1, modified: 1, inode: Int64(number))
            state.photo = id
            changes.files.append((Array(id.utf8), state))
        }
        _ = try store.apply(changes)
        try store.add(
            Geofence(name: "home", centre: try #require(Coordinate(latitude: 46.0511, longitude: 14.5051)), radius: 500)
        )
        try store.setPrivacy(PhotoPrivacy(visibility: .private), of: [ids[2], ids[5], "local-1"])
        try Self.expectSame(store, "changed")
        var owner = store
        owner.showsFenced = true
        owner.audiences = Set(Audience.allCases)
        let read = try owner.tripPhotos()
        // Re-dated to none: no longer a trip photo; re-dated: its new day; unlocated: nowhere.
        #expect(!read.contains { $0.id == ids[0] })
        #expect(read.contains { $0.id == ids[7] && $0.taken == "2021-12-12 07:30:00" })
        #expect(read.first { $0.id == ids[1] }.map { $0.coordinate == nil && $0.country == nil } == true)
    }

    @Test("a catalog made before the column of the time taken: read from the records, then filled")
    func catalogBeforeTheColumn() throws {
        let file = LocalCatalog.file(in: folder.url)
        let catalog = try LocalCatalog(file: file)
        _ = try catalog.keepRecords(Self.records(80))
        // As a photomap before the column left it: without the rows of the days either (they read it).
        try catalog.database.execute(
            """
            DROP TRIGGER trip_day_added; DROP TRIGGER trip_day_removed; DROP TRIGGER trip_day_changed;
            DROP TABLE trip_days; DROP INDEX photos_day; ALTER TABLE photos DROP COLUMN date_taken
            """)

        let reader = try LocalCatalog(file: file, readOnly: true)
        #expect(!reader.knowsDateTaken)
        try Self.expectSame(reader, "read as it was")

        let opened = try LocalCatalog(file: file)
        #expect(opened.knowsDateTaken)
        let filled = try opened.database.prepare("SELECT count(date_taken) FROM photos")
        #expect(
            try filled.step() && filled.integer(0) == Int64(Self.records(80).filter { $0.photo.dateTaken != nil }.count)
        )
        try Self.expectSame(opened, "filled")
    }

    @Test("a PostgreSQL catalog made before the column of the time taken: migrated, filled, read the same")
    func postgresCatalogBeforeTheColumn() throws {
        let place = try StateEngine.postgres.place(in: folder.url)
        let database = try #require(place.database)
        let store = try place.stores().localCatalogForImport()
        _ = try store.keepRecords(Self.records(80))
        try store.add(
            Geofence(name: "home", centre: try #require(Coordinate(latitude: 46.0511, longitude: 14.5051)), radius: 500)
        )
        // The catalog as the photomap before the column left it (without the rows of the days either).
        try TestDatabase.psql(
            database.url,
            """
            \(TestDatabase.withoutTripDays)
            ALTER TABLE local_photos DROP COLUMN date_taken;
            DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.dateTakenVersion)
            """)
        let pool = try database.pool()
        #expect(throws: DatabaseError.self) { try DatabaseSchema.check(pool) }
        let mapBefore = try TestDatabase.psql(database.url, "SELECT count(*), sum(count) FROM map_cells")

        #expect(try DatabaseSchema.migrate(pool).first == DatabaseSchema.dateTakenVersion)
        let dated = Self.records(80).filter { $0.photo.dateTaken != nil }.count
        #expect(try TestDatabase.psql(database.url, "SELECT count(date_taken) FROM local_photos") == "\(dated)")
        // The fill moved nothing on the map.
        #expect(try TestDatabase.psql(database.url, "SELECT count(*), sum(count) FROM map_cells") == mapBefore)
        try Self.expectSame(PostgresLocalCatalog(pool: pool), "migrated")
    }

    /// 40 photos in Ljubljana on 40 days (in January, March and May), the nearest within a kilometre of its centre, and 10 in Florence.
    static func homeRecords() -> [RecordPhoto] {
        (0..<50).map { number in
            let place = places[number < 40 ? 0 : 1]
            let centre = place.coordinate ?? Coordinate(latitude: 0, longitude: 0)
            let coordinate = Coordinate(
                latitude: (centre?.latitude ?? 0) + 0.002 * Double(number % 10 + 1), longitude: centre?.longitude ?? 0)
            return RecordPhoto(
                PhotoRecord(
                    sourceID: "h\(number)", title: "Home \(number)",
                    taken: "2023-0\(number / 20 * 2 + 1)-\(number % 20 + 10) 12:00:00",
                    coordinate: coordinate, image: .url("http://127.0.0.1:9/h\(number).jpg")),
                place: place)
        }
    }

    @Test(
        "home is the town's own centre for the owner and for others, a fence over it or not",
        arguments: StateEngine.allCases)
    func homeIsTheTownsOwnCentre(engine: StateEngine) throws {
        let store = try engine.place(in: folder.url).stores().localCatalogForImport()
        _ = try store.keepRecords(Self.homeRecords())
        let ljubljana = try #require(Self.places[0].coordinate)
        try store.add(Geofence(name: "near home", centre: ljubljana, radius: 1_000))
        for (showsFenced, audiences) in [(true, Set(Audience.allCases)), (false, Audience.seen(by: nil))] {
            var view = store
            view.showsFenced = showsFenced
            view.audiences = audiences
            let photos = try view.tripPhotos()
            // Others see the photos beyond the fence alone (16 of Ljubljana's lie within it), and the
            // place shown at their mean.
            #expect(photos.filter { $0.coordinate != nil }.count == (showsFenced ? 50 : 34))
            let shown = try view.places().first { $0.id == Self.places[0].id }?.coordinate
            #expect((shown == ljubljana) == showsFenced, "\(engine): shown at \(String(describing: shown))")
            let home = try #require(Home.mostDays(photos))
            #expect(home.name == "Ljubljana, Slovenia", "\(engine)")
            #expect(home.coordinate == ljubljana, "\(engine), fenced shown \(showsFenced): \(home.coordinate)")
        }
    }
}

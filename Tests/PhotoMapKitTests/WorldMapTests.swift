// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The map of everything's tiles, from the aggregates the database keeps: exact counts, changed by
/// exactly the photos that change, the same from SQLite and PostgreSQL.
@Suite("The map of everything: tiles of clusters the database keeps")
struct WorldMapTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A catalog of `count` photos on `engine`, and the photos.
    func catalog(_ engine: StateEngine, count: Int = 600) throws -> (
        store: any LocalCatalogStore, photos: [(id: String, coordinate: Coordinate, taken: String?)]
    ) {
        var generator = WorldMapCatalog()
        let photos = generator.photos(count)
        let store = try engine.place(in: folder.url).stores().localCatalogForImport()
        _ = try store.apply(WorldMapCatalog.changes(photos))
        return (store, photos)
    }

    /// Random tiles, half of them holding a photo, and random ranges (none, one end, both).
    func samples(_ photos: [(id: String, coordinate: Coordinate, taken: String?)], _ count: Int) -> [(
        MapTile, MonthRange
    )] {
        var random = WorldMapCatalog(state: 0x1234_5678_9ABC_DEF1)
        return (0..<count).compactMap { number in
            let zoom = random.below(MapTile.maximumZoom + 1)
            let tile =
                number % 2 == 0
                ? WorldMapCatalog.tile(of: photos[random.below(photos.count)].coordinate, zoom: zoom)
                : MapTile(zoom: zoom, x: random.below(1 << zoom), y: random.below(1 << zoom))
            let from = 2001 * 12 + random.below(240), to = from + random.below(120)
            let range = [
                MonthRange.all, MonthRange(from: from, to: nil), MonthRange(from: nil, to: to),
                MonthRange(from: from, to: to),
            ][number % 4]
            return tile.flatMap { tile in range.map { (tile, $0) } }
        }
    }

    /// The photos a tile holds in a range, counted one by one.
    static func bruteCount(
        _ photos: [(id: String, coordinate: Coordinate, taken: String?)], _ tile: MapTile, _ months: MonthRange
    ) -> Int {
        photos.filter { photo in
            WorldMapCatalog.tile(of: photo.coordinate, zoom: tile.zoom) == tile
                && (!months.isLimited || MonthTaken.index(photo.taken).map(months.contains) == true)
        }.count
    }

    /// `tile`'s clusters over `months` add up to `photos` in it counted one by one, and are what the naive
    /// way (the tile's photos clustered in Swift) makes of them.
    static func expectTileExact(
        _ store: any LocalCatalogStore, _ photos: [(id: String, coordinate: Coordinate, taken: String?)],
        _ tile: MapTile, _ months: MonthRange
    ) throws {
        let clusters = try store.mapClusters(in: tile, months: months)
        #expect(clusters.map(\.count).reduce(0, +) == bruteCount(photos, tile, months), "\(tile) \(months)")
        let naive = try store.naiveMapClusters(in: tile, months: months)
        #expect(clusters.map(\.count) == naive.map(\.count), "\(tile)")
        #expect(clusters.map(\.photo) == naive.map(\.photo), "\(tile)")
        #expect(clusters.map(\.from) == naive.map(\.from) && clusters.map(\.to) == naive.map(\.to), "\(tile)")
        // The cells sum whole units (`MapGridSQL.units`): a centre from them is within half a unit of the mean;
        // a cluster of one is its photo, where it is.
        let unit = 1 / MapGridSQL.unitsPerDegree
        for (made, counted) in zip(clusters, naive) {
            #expect(abs(made.latitude - counted.latitude) < unit && abs(made.longitude - counted.longitude) < unit)
            if made.count == 1 {
                #expect(made.latitude == counted.latitude && made.longitude == counted.longitude, "\(tile)")
            }
        }
    }

    /// The totals (`map_totals`) that are not their cells' months summed, both ways, and the cells and totals
    /// whose coordinate is not their photo's, on either engine: none after any adds and removals, since they
    /// are kept as deltas and recounts.
    static func staleAggregates(_ store: any LocalCatalogStore) throws -> Int {
        let levels = MapTile.totalLevels
        let misplaced = ["map_cells", "map_totals"].map { table in
            """
            (SELECT count(*) FROM \(table) a LEFT JOIN map_points p ON p.id = a.photo
                WHERE p.id IS NULL OR p.latitude <> a.latitude OR p.longitude <> a.longitude)
            """
        }
        let query = """
            SELECT \(misplaced.joined(separator: " + ")) + (SELECT count(*) FROM (SELECT level, cell, audience, sum(count) AS n, sum(sum_latitude) AS a,
                sum(sum_longitude) AS b, min(photo) AS p, min(CASE WHEN month >= 0 THEN month END) AS f, max(month) AS l
                FROM map_cells WHERE level BETWEEN \(levels.lowerBound) AND \(levels.upperBound) GROUP BY level, cell, audience) c
            FULL JOIN map_totals t USING (level, cell, audience)
            WHERE t.count IS DISTINCT FROM c.n OR t.sum_latitude IS DISTINCT FROM c.a
                OR t.sum_longitude IS DISTINCT FROM c.b OR t.photo IS DISTINCT FROM c.p
                OR t.first_month IS DISTINCT FROM c.f OR t.last_month IS DISTINCT FROM c.l)
            """
        if let catalog = store as? LocalCatalog {
            let rows = try catalog.database.prepare(query)
            _ = try rows.step()
            return Int(rows.integer(0) ?? -1)
        }
        let catalog = try #require(store as? PostgresLocalCatalog)
        return try catalog.pool.withConnection { try $0.execute(query).integer(0, 0) ?? -1 }
    }

    @Test(
        "the counts of a tile's clusters add up to the photos in it, as the naive way finds them",
        arguments: StateEngine.allCases)
    func exactCounts(engine: StateEngine) throws {
        let (store, photos) = try catalog(engine)
        for (tile, months) in samples(photos, 300) {
            try Self.expectTileExact(store, photos, tile, months)
        }
        // A cluster of one is that photo: where it is, its month.
        let lone = try #require(photos.first { $0.taken != nil && $0.coordinate.latitude.magnitude < 80 })
        let tile = try #require(WorldMapCatalog.tile(of: lone.coordinate, zoom: 22))
        let clusters = try store.mapClusters(in: tile, months: .all)
        #expect(clusters.count == 1 && clusters.first?.photo == lone.id)
        #expect(
            clusters.first?.latitude == lone.coordinate.latitude && clusters.first?.from == MonthTaken.index(lone.taken)
        )
        // So at every zoom where it is alone in its cell, the aggregated ones too: to the last bit.
        var alone = 0
        for zoom in 0...MapTile.maximumZoom {
            let tile = try #require(WorldMapCatalog.tile(of: lone.coordinate, zoom: zoom))
            for cluster in try store.mapClusters(in: tile, months: .all)
            where cluster.photo == lone.id && cluster.count == 1 {
                #expect(cluster.latitude == lone.coordinate.latitude, "zoom \(zoom)")
                #expect(cluster.longitude == lone.coordinate.longitude, "zoom \(zoom)")
                alone += MapTile.aggregatedZooms.contains(zoom) ? 1 : 0
            }
        }
        #expect(alone > 0)
    }

    /// Every tile at every zoom that holds `coordinate`, with its clusters, and as many others.
    func answers(_ store: any LocalCatalogStore, around coordinates: [Coordinate]) throws -> [MapTile: [MapCluster]] {
        var tiles = Set<MapTile>()
        for coordinate in coordinates {
            for zoom in 0...MapTile.maximumZoom {
                guard let tile = WorldMapCatalog.tile(of: coordinate, zoom: zoom) else { continue }
                tiles.insert(tile)
                // Its neighbours, which must not change.
                for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                    if let other = MapTile(zoom: zoom, x: tile.x + dx, y: tile.y + dy) { tiles.insert(other) }
                }
            }
        }
        return try Dictionary(uniqueKeysWithValues: tiles.map { ($0, try store.mapClusters(in: $0, months: .all)) })
    }

    /// The tiles whose clusters differ between two answers.
    static func changed(_ before: [MapTile: [MapCluster]], _ after: [MapTile: [MapCluster]]) -> Set<MapTile> {
        Set(before.keys.filter { before[$0] != after[$0] })
    }

    /// The tiles holding `coordinate` at every zoom.
    static func tiles(of coordinate: Coordinate) -> Set<MapTile> {
        Set((0...MapTile.maximumZoom).compactMap { WorldMapCatalog.tile(of: coordinate, zoom: $0) })
    }

    @Test(
        "a photo imported, located, fenced or removed changes exactly the tiles it lies in",
        arguments: StateEngine.allCases)
    func changesExactly(engine: StateEngine) throws {
        var (store, photos) = try catalog(engine, count: 200)
        let here = try #require(Coordinate(latitude: 46.0512, longitude: 14.5061))
        let there = try #require(Coordinate(latitude: -12.04, longitude: -77.03))
        let around = [here, there, photos[0].coordinate]
        var before = try answers(store, around: around)

        // Imported.
        let added = (id: "local-00000000000000aa", coordinate: here, taken: Optional("2019-05-01 10:00:00"))
        var changes = WorldMapCatalog.changes(photos + [added])
        changes.files = [changes.files[changes.files.count - 1]]
        changes.photos = [changes.photos[changes.photos.count - 1]]
        _ = try store.apply(changes)
        var after = try answers(store, around: around)
        #expect(Self.changed(before, after) == Self.tiles(of: here))
        #expect(after.values.contains { $0.contains { $0.photo == added.id && $0.count == 1 } })

        // Located elsewhere.
        before = after
        let place = LocalPlace(id: "lima", shortName: "Lima", fullName: "Lima, Peru", coordinate: there)
        _ = try store.locate([
            LocatedPhoto(id: added.id, coordinate: there, place: place, source: .track, estimateOffset: nil)
        ])
        after = try answers(store, around: around)
        #expect(Self.changed(before, after) == Self.tiles(of: here).union(Self.tiles(of: there)))

        // Fenced: gone from every tile, as from every listing.
        before = after
        try store.add(Geofence(name: "home", centre: there, radius: 100))
        after = try answers(store, around: around)
        #expect(Self.changed(before, after) == Self.tiles(of: there))
        #expect(!after.values.contains { $0.contains { $0.photo == added.id } })
        try store.removeFence(named: "home")
        #expect(try answers(store, around: around) == before)

        // Its location made private (the audiences): gone from every tile for the public, back when public.
        let placeHidden = try #require(PhotoPrivacy(visibility: .public, location: .private))
        try store.setPrivacy(placeHidden, of: [added.id])
        after = try answers(store, around: around)
        #expect(Self.changed(before, after) == Self.tiles(of: there))
        #expect(!after.values.contains { $0.contains { $0.photo == added.id } })
        try store.setPrivacy(.everyone, of: [added.id])
        #expect(try answers(store, around: around) == before)

        // Removed: its file gone.
        before = try answers(store, around: around)
        var gone = LocalCatalogChanges()
        gone.gone = [Array(photos[0].id.utf8)]
        _ = try store.apply(gone)
        after = try answers(store, around: around)
        #expect(Self.changed(before, after) == Self.tiles(of: photos[0].coordinate))
        photos.removeFirst()
        for (tile, months) in samples(photos, 100) {
            let count = try store.mapClusters(in: tile, months: months).map(\.count).reduce(0, +)
            #expect(count == Self.bruteCount(photos + [(added.id, there, added.taken)], tile, months))
        }
        // After all that, every answer is to the last bit what a map of these photos counted at once gives: the
        // sums are integers (`MapGridSQL.units`), where doubles kept the traces of what came and went.
        let other = try TemporaryFolder()
        let fresh = try engine.place(in: other.url).stores().localCatalogForImport()
        _ = try fresh.apply(WorldMapCatalog.changes(photos + [(added.id, there, added.taken)]))
        #expect(try answers(fresh, around: around) == answers(store, around: around))
        #expect(try Self.staleAggregates(store) == 0)
        store.showsFenced = false
    }

    /// The viewers of the map: anyone, each role signed in, and the owner with the fenced photos too.
    static let viewers: [(role: Role?, showsFenced: Bool)] =
        [(nil, false)] + Role.allCases.map { ($0, false) } + [(.owner, true)]

    @Test(
        "every viewer's tiles are the aggregates of what it may see, exact, as the naive way makes them",
        arguments: StateEngine.allCases)
    func eachViewer(engine: StateEngine) throws {
        var (store, photos) = try catalog(engine, count: 500)
        // Every location audience in turn, and a fence over one of the crowded spots.
        let audiences = Audience.allCases
        for (index, audience) in audiences.enumerated() {
            let ids = photos.indices.filter { $0 % audiences.count == index }.map { photos[$0].id }
            try store.setPrivacy(#require(PhotoPrivacy(visibility: audience, location: audience)), of: ids)
        }
        let fence = Geofence(
            name: "home", centre: try #require(Coordinate(latitude: 48.85, longitude: 2.35)), radius: 5_000)
        try store.add(fence)
        let fenced = Set(photos.filter { fence.contains($0.coordinate) }.map(\.id))
        #expect(!fenced.isEmpty)
        for viewer in Self.viewers {
            store.audiences = Audience.seen(by: viewer.role)
            store.showsFenced = viewer.showsFenced
            let seen = photos.indices.filter { index in
                store.audiences.contains(audiences[index % audiences.count])
                    && (viewer.showsFenced || !fenced.contains(photos[index].id))
            }.map { photos[$0] }
            for (tile, months) in samples(photos, 120) {
                try Self.expectTileExact(store, seen, tile, months)
            }
            // The timeline's months count the same photos.
            let months = try store.mapMonths()
            let counted: Int = stride(from: 1, to: months.count, by: 2).map { months[$0] }.reduce(0, +)
            let dated: Int = seen.filter { MonthTaken.index($0.taken) != nil }.count
            #expect(counted == dated, "\(viewer)")
        }
        store.audiences = Audience.seen(by: nil)
        store.showsFenced = false
    }

    @Test("SQLite and PostgreSQL answer the same clusters")
    func sameOnBothEngines() throws {
        let (files, photos) = try catalog(.files, count: 400)
        let (database, _) = try catalog(.postgres, count: 400)
        for (tile, months) in samples(photos, 200) {
            let one = try files.mapClusters(in: tile, months: months)
            let other = try database.mapClusters(in: tile, months: months)
            #expect(one.map(\.count) == other.map(\.count), "\(tile)")
            #expect(one.map(\.photo) == other.map(\.photo) && one.map(\.from) == other.map(\.from), "\(tile)")
            #expect(one.map(\.to) == other.map(\.to), "\(tile)")
            // To the last bit: both sum the same integers.
            #expect(one.map(\.latitude) == other.map(\.latitude), "\(tile)")
            #expect(one.map(\.longitude) == other.map(\.longitude), "\(tile)")
        }
    }

    @Test("a catalog whose map kept only the public view is counted again for every viewer")
    func publicOnlyMap() throws {
        let (store, photos) = try catalog(.files, count: 100)
        let hidden = photos.prefix(30).map(\.id)
        try store.setPrivacy(.init(visibility: .private), of: hidden)
        let catalog = try #require(store as? LocalCatalog)
        // The tables as photomap made them before they kept audiences.
        try catalog.database.execute(
            """
            DROP TABLE map_cells; DROP TABLE map_points;
            CREATE TABLE map_points (id TEXT PRIMARY KEY, key INTEGER NOT NULL, month INTEGER NOT NULL,
                latitude REAL NOT NULL, longitude REAL NOT NULL);
            CREATE TABLE map_cells (level INTEGER NOT NULL, cell INTEGER NOT NULL, month INTEGER NOT NULL,
                count INTEGER NOT NULL, sum_latitude REAL NOT NULL, sum_longitude REAL NOT NULL, photo TEXT NOT NULL,
                PRIMARY KEY (level, cell, month)) WITHOUT ROWID;
            """)
        let reopened = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        reopened.audiences = Audience.seen(by: .owner)
        for (tile, months) in samples(photos, 50) {
            try Self.expectTileExact(reopened, photos, tile, months)
        }
        reopened.audiences = Audience.seen(by: nil)
        let shown = Array(photos.dropFirst(30))
        for (tile, months) in samples(photos, 50) {
            try Self.expectTileExact(reopened, shown, tile, months)
        }
    }

    @Test("a database whose map kept only the public view is counted again for every viewer by its migration")
    func publicOnlyDatabaseMap() throws {
        let place = try StateEngine.postgres.place(in: folder.url)
        let database = try #require(place.database)
        var generator = WorldMapCatalog()
        let photos = generator.photos(200)
        var store = try place.stores().localCatalogForImport()
        _ = try store.apply(WorldMapCatalog.changes(photos))
        try store.setPrivacy(.init(visibility: .friends), of: photos.prefix(60).map(\.id))
        // The tables as photomap made them before they kept audiences, holding the public photos only.
        try TestDatabase.psql(
            database.url,
            """
            DROP TRIGGER map_photo_changed ON local_photos; DROP TABLE map_points, map_cells;
            CREATE TABLE map_points (id text COLLATE "C" PRIMARY KEY, key bigint NOT NULL, month integer NOT NULL,
                latitude double precision NOT NULL, longitude double precision NOT NULL);
            CREATE TABLE map_cells (level smallint NOT NULL, cell bigint NOT NULL, month integer NOT NULL,
                count integer NOT NULL, sum_latitude double precision NOT NULL, sum_longitude double precision NOT NULL,
                photo text COLLATE "C" NOT NULL, PRIMARY KEY (level, cell, month));
            CREATE TRIGGER map_photo_changed AFTER INSERT OR UPDATE OR DELETE ON local_photos
                FOR EACH ROW EXECUTE FUNCTION map_photo_changed();
            DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.mapAudiencesVersion)
            """)
        let pool = try database.pool()
        #expect(throws: DatabaseError.self) { try DatabaseSchema.check(pool) }
        #expect(
            try DatabaseSchema.migrate(pool)
                == Array(DatabaseSchema.mapAudiencesVersion...DatabaseSchema.currentVersion))
        store = PostgresLocalCatalog(pool: pool)
        store.audiences = Audience.seen(by: .friend)
        for (tile, months) in samples(photos, 60) {
            try Self.expectTileExact(store, photos, tile, months)
        }
        store.audiences = Audience.seen(by: .family)
        for (tile, months) in samples(photos, 60) {
            try Self.expectTileExact(store, Array(photos.dropFirst(60)), tile, months)
        }
        // The triggers are back: a photo made public is on the public map.
        store.audiences = Audience.seen(by: nil)
        try store.setPrivacy(.everyone, of: [photos[0].id])
        for (tile, months) in samples(photos, 60) {
            try Self.expectTileExact(store, [photos[0]] + photos.dropFirst(60), tile, months)
        }
    }

    @Test(
        "a map made before cells kept their photo's coordinate is made again (SQLite: reopened; PostgreSQL: migrated)",
        arguments: StateEngine.allCases)
    func mapBeforeCoordinates(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        var generator = WorldMapCatalog()
        var photos = generator.photos(300)
        var store = try place.stores().localCatalogForImport()
        _ = try store.apply(WorldMapCatalog.changes(Array(photos.prefix(250))))
        // The map as the photomap before the coordinates left it (at 15 or 16 on PostgreSQL): no such columns,
        // triggers that do not write them.
        let before =
            ["map_cells", "map_totals"].map { "ALTER TABLE \($0) DROP COLUMN latitude" }
            + ["map_cells", "map_totals"].map { "ALTER TABLE \($0) DROP COLUMN longitude" }
        if let database = place.database {
            try TestDatabase.psql(
                database.url,
                """
                \(before.joined(separator: ";\n"));
                CREATE OR REPLACE FUNCTION map_point_added() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RETURN NULL; END $$;
                CREATE OR REPLACE FUNCTION map_point_removed() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RETURN NULL; END $$;
                DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.mapTotalsVersion)
                """)
            let pool = try database.pool()
            #expect(try DatabaseSchema.migrate(pool) == [DatabaseSchema.mapTotalsVersion, DatabaseSchema.mapVersion])
            store = PostgresLocalCatalog(pool: pool)
        } else {
            let catalog = try #require(store as? LocalCatalog)
            try catalog.database.execute(
                "DROP TRIGGER map_point_added; DROP TRIGGER map_point_removed; \(before.joined(separator: "; "))")
            store = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        }
        #expect(try Self.staleAggregates(store) == 0)
        // The triggers keep them: photos added, and some removed.
        _ = try store.apply(WorldMapCatalog.changes(photos))
        var gone = LocalCatalogChanges()
        gone.gone = photos.prefix(40).map { Array($0.id.utf8) }
        _ = try store.apply(gone)
        photos.removeFirst(40)
        #expect(try Self.staleAggregates(store) == 0)
        for (tile, months) in samples(photos, 120) {
            try Self.expectTileExact(store, photos, tile, months)
        }
    }

    @Test("a catalog made before the map is counted when it is next opened to write")
    func olderCatalog() throws {
        let (store, photos) = try catalog(.files, count: 100)
        let catalog = try #require(store as? LocalCatalog)
        try catalog.database.execute("DROP TABLE map_cells; DROP TABLE map_points")
        let reopened = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        for (tile, months) in samples(photos, 50) {
            #expect(
                try reopened.mapClusters(in: tile, months: months).map(\.count).reduce(0, +)
                    == Self.bruteCount(photos, tile, months))
        }
    }
}

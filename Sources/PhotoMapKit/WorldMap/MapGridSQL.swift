// SPDX-License-Identifier: Apache-2.0
/// The map's aggregates in SQL, for SQLite (`LocalCatalog`) and PostgreSQL (`DatabaseSchema`), kept by
/// triggers as photos are imported, located, fenced or removed, whatever writes them:
///
/// - `map_points`: each located photo: its key (`MapTile.key`), month (-1 for none), coordinate and who
///   sees it there (`MapAudience`). Deep tiles read these.
/// - `map_cells`: for each cell level in `MapTile.cellLevels`, cell, month and audience: how many points,
///   the sums of their latitudes and longitudes (in `units`), and the least id among them with its own
///   coordinate (a cluster of one is that photo, where it is, read with its cell: not from `map_points`,
///   whose rows a cold tile would read from disk one by one). A tile's
///   clusters are one range of one level's cells for each audience its viewer sees, summed. PostgreSQL
///   keys them by the audience before the cell, so the public's tiles read no row of another audience;
///   SQLite by the cell first, its rows then come in the cell order its grouping wants (keyed as
///   PostgreSQL, the owner's zoom-0 tile over 1M photos took 23 ms, not 13).
/// - `map_totals`: the low zooms' cells summed over every month (`MapGridSQL+Totals`).
///
/// The cost, per photo added or removed: one point row (two index entries), one upsert a level (17) and
/// one a totalled level (6); a removal sums each of its 6 totals again from its cell's months, and when
/// the photo removed is its cell's least id, that cell's points of that month are read for the next. A
/// batch of many photos (`import --records`) keeps them itself instead, with the triggers away for its
/// transaction (`MapGridSQL+Batch`): one upsert a cell it touches, not a photo and level.
enum MapGridSQL {
    static let scale = 1 << MapTile.keyZoom

    /// The cells sum coordinates in whole units of 10⁻⁸° (about a millimetre). Integer sums are exact: a
    /// cell's sums after any adds and removals are those of its points, and a tile's sums of cells come out
    /// the same in any order, where sums of doubles differed in their last bits (a tile sorted each cell's
    /// rows first: half its time at low zooms). 2⁶³ units hold 5 × 10⁸ photos at ±180° in one cell.
    static let unitsPerDegree = 100_000_000.0

    /// A coordinate in `unitsPerDegree`, rounded as `units(column)` rounds it in SQL: the same steps in doubles.
    static func units(_ degrees: Double) -> Int64 { Int64((degrees * unitsPerDegree + 0.5).rounded(.down)) }

    /// `units` in SQL, for SQLite and PostgreSQL alike (its factor a double in both).
    static func units(_ column: String) -> String {
        "CAST(floor(\(column) * CAST(\(Int(unitsPerDegree)) AS double precision) + 0.5) AS bigint)"
    }

    /// A cluster's centre from its cells' sum of `units` and its count.
    static func centre(_ sum: Double, count: Int) -> Double { sum / unitsPerDegree / Double(count) }

    /// The key of a coordinate, as `MapTile.key` makes it, for the SQL that has a `longitude` and a
    /// `latitude` in scope: x and y, not yet interleaved.
    static func gridX(_ longitude: String, least: String, greatest: String) -> String {
        "\(least)(\(greatest)(floor((\(longitude) + 180.0) / 360.0 * \(scale)), 0), \(scale - 1))"
    }

    static func gridY(_ latitude: String, least: String, greatest: String) -> String {
        let clamped = "\(greatest)(-\(MapTile.clampedLatitude), \(least)(\(MapTile.clampedLatitude), \(latitude)))"
        let projected = "(0.5 - ln(tan(pi() / 4 + \(clamped) * pi() / 360)) / (2 * pi()))"
        return "\(least)(\(greatest)(floor(\(projected) * \(scale)), 0), \(scale - 1))"
    }

    /// The month of a photo's date taken, as `MonthTaken.index` reads it, from the text `date`.
    static func sqliteMonth(_ date: String) -> String {
        """
        CASE WHEN \(date) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]*' AND substr(\(date), 6, 2) BETWEEN '01' AND '12'
            AND substr(\(date), 1, 4) <> '0000'
        THEN CAST(substr(\(date), 1, 4) AS INTEGER) * 12 + CAST(substr(\(date), 6, 2) AS INTEGER) - 1 ELSE -1 END
        """
    }

    /// SQLite's tables, those of a map made before these (and its triggers) dropped first. Triggers left by
    /// tables dropped by hand would write to tables that are not there; a map made before audiences is made
    /// again.
    static var sqliteTables: String {
        """
        \(sqliteTriggerDrops) DROP TABLE IF EXISTS map_cells; DROP TABLE IF EXISTS map_points;
        CREATE TABLE map_points (id TEXT PRIMARY KEY, key INTEGER NOT NULL, month INTEGER NOT NULL,
            latitude REAL NOT NULL, longitude REAL NOT NULL, audience INTEGER NOT NULL);
        CREATE INDEX map_points_key ON map_points (key);
        CREATE INDEX map_points_month ON map_points (audience, month, key, id);
        CREATE TABLE map_cells (level INTEGER NOT NULL, cell INTEGER NOT NULL, month INTEGER NOT NULL,
            audience INTEGER NOT NULL, count INTEGER NOT NULL, sum_latitude INTEGER NOT NULL,
            sum_longitude INTEGER NOT NULL, photo TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
            PRIMARY KEY (level, cell, month, audience)) WITHOUT ROWID;
        \(totalsTable(postgres: false))
        """
    }

    /// SQLite's triggers (SQLite has no functions of its own to call: the key is nested subqueries, one
    /// spread step each), made once the tables hold the photos there before.
    static var sqliteTriggers: String { sqliteParts.map(\.statement).joined(separator: "\n") }

    /// Counts every point into its cells in one statement, for a map made over photos already there: one
    /// grouping, where the triggers would upsert 17 cells a photo. SQLite takes the least id's coordinate
    /// from its row as it groups (its bare columns beside a single min() come from the row of the minimum);
    /// PostgreSQL from its point after (`placed`: SQLite's lookups a cell took a million photos' map from
    /// 89 s to 225).
    static func cellsFromPoints(postgres: Bool) -> String {
        let levels = MapTile.cellLevels.map { "(\($0))" }.joined(separator: ", ")
        let cell = "p.key >> (2 * (\(MapTile.keyZoom) - l.level))"
        let grouping = """
            SELECT l.level, \(cell), p.month, p.audience, count(*), sum(\(units("p.latitude"))),
                sum(\(units("p.longitude"))), min(p.id) AS photo\(postgres ? "" : ", p.latitude, p.longitude")
            FROM map_points p, (SELECT column1 AS level FROM (VALUES \(levels)) AS v) AS l
            GROUP BY l.level, \(cell), p.month, p.audience
            """
        return """
            INSERT INTO map_cells (level, cell, month, audience, count, sum_latitude, sum_longitude, photo, latitude,
                longitude)
            \(postgres ? placed(grouping) : grouping);
            """
    }

    /// A grouping's rows, its least id last (`photo`), with that photo's coordinate from its point.
    static func placed(_ grouping: String) -> String {
        "SELECT g.*, q.latitude, q.longitude FROM (\(grouping)) AS g JOIN map_points q ON q.id = g.photo"
    }

    /// The triggers that write the map as photos and points are written (`map_photo_removed` aside: a
    /// batch removes no photo), each a statement: a batch drops them and makes them again before it ends.
    static var sqliteBatchTriggers: [(name: String, statement: String)] {
        sqliteParts.filter { $0.name != "map_photo_removed" }
    }

    /// Every trigger of the map dropped, to be made again.
    private static var sqliteTriggerDrops: String {
        sqliteParts.map { "DROP TRIGGER IF EXISTS \($0.name);" }.joined(separator: " ")
    }

    /// Each trigger's name and statement.
    private static var sqliteParts: [(name: String, statement: String)] {
        var spread =
            "SELECT CAST(\(gridX("NEW.longitude", least: "min", greatest: "max")) AS INTEGER) AS sx, "
            + "CAST(\(gridY("NEW.latitude", least: "min", greatest: "max")) AS INTEGER) AS sy"
        for step in MapTile.spreadSteps {
            spread =
                "SELECT (sx | (sx << \(step.shift))) & \(step.mask) AS sx, "
                + "(sy | (sy << \(step.shift))) & \(step.mask) AS sy FROM (\(spread))"
        }
        let month = sqliteMonth("json_extract(CAST(NEW.record AS TEXT), '$.dateTaken')")
        let audience = MapAudience.sql(location: "NEW.location_audience", hidden: "NEW.hidden")
        let placed = """
            DELETE FROM map_points WHERE id = NEW.id;
            INSERT INTO map_points (id, key, month, latitude, longitude, audience)
            SELECT NEW.id, sx | (sy << 1), \(month), NEW.latitude, NEW.longitude, \(audience) FROM (\(spread))
            WHERE NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL;
            """
        let added = MapTile.cellLevels.map { level in
            let cell = "NEW.key >> \(2 * (MapTile.keyZoom - level))"
            let sums = "1, \(units("NEW.latitude")), \(units("NEW.longitude")), NEW.id"
            let months = "CASE WHEN NEW.month >= 0 THEN NEW.month END, NEW.month"
            let place = "NEW.latitude, NEW.longitude"
            let cells = [cellUpsert("VALUES (\(level), \(cell), NEW.month, NEW.audience, \(sums), \(place))")]
            let totals =
                MapTile.totalLevels.contains(level)
                ? [
                    totalUpsert(
                        "VALUES (\(level), \(cell), NEW.audience, \(sums), \(months), \(place))", least: "min",
                        greatest: "max")
                ]
                : []
            return (cells + totals).map { $0 + ";" }.joined(separator: "\n")
        }
        let removed = MapTile.cellLevels.map { level in
            let cell = "(OLD.key >> \(2 * (MapTile.keyZoom - level)))"
            let key = "level = \(level) AND cell = \(cell) AND month = OLD.month AND audience = OLD.audience"
            let cells = [
                """
                UPDATE map_cells SET count = count - 1, sum_latitude = sum_latitude - \(units("OLD.latitude")),
                    sum_longitude = sum_longitude - \(units("OLD.longitude"))
                WHERE \(key)
                """,
                "DELETE FROM map_cells WHERE \(key) AND count <= 0",
                """
                UPDATE map_cells SET (photo, latitude, longitude) = \(cellLeast(
                    level: "\(level)", cell: cell, month: "OLD.month", audience: "OLD.audience"))
                WHERE \(key) AND photo = OLD.id
                """,
            ]
            let totals =
                MapTile.totalLevels.contains(level)
                ? totalsRecount(level: "\(level)", cell: cell, audience: "OLD.audience") : []
            return (cells + totals).map { $0 + ";" }.joined(separator: "\n")
        }
        return [
            (
                "map_photo_added",
                """
                CREATE TRIGGER map_photo_added AFTER INSERT ON photos BEGIN
                \(placed)
                END;
                """
            ),
            (
                "map_photo_changed",
                """
                CREATE TRIGGER map_photo_changed AFTER UPDATE OF latitude, longitude, hidden, record, location_audience
                    ON photos
                WHEN OLD.latitude IS NOT NEW.latitude OR OLD.longitude IS NOT NEW.longitude OR OLD.hidden IS NOT NEW.hidden
                    OR OLD.record IS NOT NEW.record OR OLD.location_audience IS NOT NEW.location_audience
                BEGIN
                \(placed)
                END;
                """
            ),
            (
                "map_photo_removed",
                """
                CREATE TRIGGER map_photo_removed AFTER DELETE ON photos BEGIN
                    DELETE FROM map_points WHERE id = OLD.id;
                END;
                """
            ),
            (
                "map_point_added",
                """
                CREATE TRIGGER map_point_added AFTER INSERT ON map_points BEGIN
                \(added.joined(separator: "\n"))
                END;
                """
            ),
            (
                "map_point_removed",
                """
                CREATE TRIGGER map_point_removed AFTER DELETE ON map_points BEGIN
                \(removed.joined(separator: "\n"))
                END;
                """
            ),
        ]
    }
}

// SPDX-License-Identifier: Apache-2.0
/// `map_totals`: for the cell levels of the low zooms (`MapTile.totalLevels`), each cell and audience's
/// `map_cells` rows summed over every month — the count, the sums, the least id, the first dated month,
/// the last month, and the least id's coordinate. A low-zoom tile asked for no range reads a row a cell and
/// audience there (64 a code at zoom 0), where the cells would give it one a month (64 × some 300 at zoom 0
/// over 1M photos: the owner's world tile took 23 ms on PostgreSQL).
///
/// The cost, per photo added: one more upsert a totalled level (6). A point removed, or a batch's cell that
/// lost a point, is totalled again from its cell's monthly rows (at most one a month), which know its next
/// least id and months; integer sums make an added point an exact delta.
extension MapGridSQL {
    /// The table for SQLite or PostgreSQL, keyed as `map_cells` is on each (see `MapGridSQL`), a table of
    /// a map made before it dropped first.
    static func totalsTable(postgres: Bool) -> String {
        let (small, int, big, id, real, key) =
            postgres
            ? (
                "smallint", "integer", "bigint", #"text COLLATE "C""#, "double precision",
                "PRIMARY KEY (level, audience, cell) "
                    + covering(["count", "sum_latitude", "sum_longitude", "first_month", "last_month"])
            )
            : ("INTEGER", "INTEGER", "INTEGER", "TEXT", "REAL", "PRIMARY KEY (level, cell, audience)")
        return """
            DROP TABLE IF EXISTS map_totals;
            CREATE TABLE map_totals (level \(small) NOT NULL, cell \(big) NOT NULL, audience \(small) NOT NULL,
                count \(int) NOT NULL, sum_latitude \(big) NOT NULL, sum_longitude \(big) NOT NULL, photo \(id) NOT NULL,
                first_month \(int), last_month \(int) NOT NULL, latitude \(real) NOT NULL, longitude \(real) NOT NULL,
                \(key))\(postgres ? "" : " WITHOUT ROWID");
            """
    }

    /// A cell and audience's monthly rows totalled, in `map_totals`' column order from `count` to
    /// `last_month` (the first dated month NULL when none is dated, the last -1).
    private static func totalled(_ cells: String) -> String {
        "sum(\(cells)count), sum(\(cells)sum_latitude), sum(\(cells)sum_longitude), min(\(cells)photo) AS photo, "
            + "min(CASE WHEN \(cells)month >= 0 THEN \(cells)month END), max(\(cells)month)"
    }

    private static let columns =
        "level, cell, audience, count, sum_latitude, sum_longitude, photo, first_month, last_month, latitude, longitude"

    /// Totals every totalled level's cells at once: for a map made over photos there, or before the totals.
    static var totalsFromCells: String {
        """
        INSERT INTO map_totals (\(columns)) \(placed("""
            SELECT level, cell, audience, \(totalled("")) FROM map_cells
            WHERE level BETWEEN \(MapTile.totalLevels.lowerBound) AND \(MapTile.totalLevels.upperBound)
            GROUP BY level, cell, audience
            """));
        """
    }

    /// Adds what came to a total: `rows` (a VALUES or SELECT, and for SQLite's SELECT a WHERE) give its key,
    /// the count and sums that came less those that went, the least id that came ("" for none), the first
    /// dated month (NULL for none) and last month (-1) that came, and the least id's coordinate; `least` and
    /// `greatest` the engine's two-argument minimum and maximum.
    static func totalUpsert(_ rows: String, least: String, greatest: String) -> String {
        """
        INSERT INTO map_totals (\(columns)) \(rows)
        ON CONFLICT (level, audience, cell) DO UPDATE SET count = map_totals.count + excluded.count,
            sum_latitude = map_totals.sum_latitude + excluded.sum_latitude,
            sum_longitude = map_totals.sum_longitude + excluded.sum_longitude, \(leastPhoto("map_totals")),
            first_month = \(least)(coalesce(map_totals.first_month, excluded.first_month),
                coalesce(excluded.first_month, map_totals.first_month)),
            last_month = \(greatest)(map_totals.last_month, excluded.last_month)
        """
    }

    /// Totals again from their cells the rows `condition` picks (on `map_totals`: SQLite's triggers take no
    /// alias): those of a cell that lost a point, whose least id or months may have gone with it, the least
    /// id's coordinate read from its cell's row. A total whose cell has no row left goes. Three statements.
    static func totalsRecount(where condition: String) -> [String] {
        let same = "c.level = map_totals.level AND c.cell = map_totals.cell AND c.audience = map_totals.audience"
        return [
            "DELETE FROM map_totals WHERE \(condition) AND NOT EXISTS (SELECT 1 FROM map_cells c WHERE \(same))",
            """
            UPDATE map_totals SET (count, sum_latitude, sum_longitude, photo, first_month, last_month) =
                (SELECT \(totalled("c.")) FROM map_cells c WHERE \(same)) WHERE \(condition)
            """,
            """
            UPDATE map_totals SET (latitude, longitude) =
                (SELECT c.latitude, c.longitude FROM map_cells c WHERE \(same) AND c.photo = map_totals.photo)
            WHERE \(condition)
            """,
        ]
    }

    /// `totalsRecount` of the total with this key (columns, values or parameters).
    static func totalsRecount(level: String, cell: String, audience: String) -> [String] {
        totalsRecount(
            where: "map_totals.level = \(level) AND map_totals.cell = \(cell) AND map_totals.audience = \(audience)")
    }

    /// PostgreSQL's migration that made the totals, counted from the cells there, with the map's functions
    /// that keep them (`postgres` holds it too, so a database migrated from before the map makes them there).
    static var postgresTotals: String {
        let shift = "(2 * (\(MapTile.keyZoom) - level))"
        let levels = "generate_series(\(MapTile.cellLevels.lowerBound), \(MapTile.cellLevels.upperBound))"
        let totalLevels = "generate_series(\(MapTile.totalLevels.lowerBound), \(MapTile.totalLevels.upperBound))"
        let removedCells = "SELECT level, OLD.key >> \(shift), OLD.month, OLD.audience FROM \(levels) AS level"
        let removedTotals =
            "(map_totals.level, map_totals.cell, map_totals.audience) IN "
            + "(SELECT level, OLD.key >> \(shift), OLD.audience FROM \(totalLevels) AS level)"
        return """
            \(totalsTable(postgres: true))
            \(totalsFromCells)
            CREATE OR REPLACE FUNCTION map_point_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(cellUpsert("""
                    SELECT level, NEW.key >> \(shift), NEW.month, NEW.audience, 1, \(units("NEW.latitude")),
                        \(units("NEW.longitude")), NEW.id, NEW.latitude, NEW.longitude FROM \(levels) AS level
                    """));
                \(totalUpsert("""
                    SELECT level, NEW.key >> \(shift), NEW.audience, 1, \(units("NEW.latitude")),
                        \(units("NEW.longitude")), NEW.id, CASE WHEN NEW.month >= 0 THEN NEW.month END, NEW.month,
                        NEW.latitude, NEW.longitude
                    FROM \(totalLevels) AS level
                    """, least: "least", greatest: "greatest"));
                RETURN NULL;
            END $$;
            CREATE OR REPLACE FUNCTION map_point_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE map_cells c SET count = c.count - 1, sum_latitude = c.sum_latitude - \(units("OLD.latitude")),
                    sum_longitude = c.sum_longitude - \(units("OLD.longitude"))
                WHERE (c.level, c.cell, c.month, c.audience) IN (\(removedCells));
                DELETE FROM map_cells c WHERE c.count <= 0 AND (c.level, c.cell, c.month, c.audience) IN (\(removedCells));
                UPDATE map_cells c SET (photo, latitude, longitude) =
                    \(cellLeast(level: "c.level", cell: "c.cell", month: "OLD.month", audience: "OLD.audience"))
                WHERE c.photo = OLD.id AND (c.level, c.cell, c.month, c.audience) IN (\(removedCells));
                \(totalsRecount(where: removedTotals).map { $0 + ";" }.joined(separator: "\n    "))
                RETURN NULL;
            END $$;
            """
    }
}

extension MapTile {
    /// The table this tile's clusters are summed from over `months` (`map_totals` at a totalled zoom asked
    /// for no range, else `map_cells`), with its expressions of a row's first dated month and last month.
    func cellSource(months: MonthRange) -> (table: String, first: String, last: String) {
        months.bounds == nil && Self.totalledZooms.contains(zoom)
            ? ("map_totals", "first_month", "last_month")
            : ("map_cells", "CASE WHEN month >= 0 THEN month END", "month")
    }
}

// SPDX-License-Identifier: Apache-2.0
/// The map's aggregates kept a batch at a time: a writer of many photos (`import --records`) writes their
/// points itself and each cell they touch once (`MapCellChanges`), instead of the triggers' point and 17
/// cells for every photo. The SQL both engines share.
extension MapGridSQL {
    /// The setting a PostgreSQL transaction that keeps the map itself sets (`SET LOCAL`): the triggers then
    /// leave the photos and points it writes to it.
    static let batchSetting = "photomap.map_batch"

    /// PostgreSQL's migration: the map's triggers fire unless `batchSetting` is on (checked in the
    /// trigger's WHEN, so a batch's rows call no function).
    static var postgresBatches: String {
        let idle = "current_setting('\(batchSetting)', true) IS DISTINCT FROM 'on'"
        let triggers = [
            ("map_photo_changed", "INSERT OR UPDATE OR DELETE", "local_photos"),
            ("map_point_added", "INSERT", "map_points"), ("map_point_removed", "DELETE", "map_points"),
        ]
        return triggers.map { name, events, table in
            """
            DROP TRIGGER \(name) ON \(table);
            CREATE TRIGGER \(name) AFTER \(events) ON \(table) FOR EACH ROW WHEN (\(idle))
                EXECUTE FUNCTION \(name)();
            """
        }.joined(separator: "\n")
    }

    /// Adds one cell's change (level, cell, month, audience, count, sums, least id that came or "" and its
    /// coordinate) from `rows` (a VALUES or SELECT).
    static func cellUpsert(_ rows: String) -> String {
        """
        INSERT INTO map_cells (level, cell, month, audience, count, sum_latitude, sum_longitude, photo, latitude,
            longitude) \(rows)
        ON CONFLICT (level, audience, cell, month) DO UPDATE SET count = map_cells.count + excluded.count,
            sum_latitude = map_cells.sum_latitude + excluded.sum_latitude,
            sum_longitude = map_cells.sum_longitude + excluded.sum_longitude, \(leastPhoto("map_cells"))
        """
    }

    /// An upsert's photo and its coordinate: the least id that came, with its own, when it precedes the row's.
    static func leastPhoto(_ table: String) -> String {
        let came = "excluded.photo <> '' AND excluded.photo < \(table).photo"
        return ["photo", "latitude", "longitude"].map {
            "\($0) = CASE WHEN \(came) THEN excluded.\($0) ELSE \(table).\($0) END"
        }
        .joined(separator: ", ")
    }

    /// The least id among the points of a cell, month and audience, with its coordinate: a cell's photo read
    /// again when the point that was it went (a row subquery; none when the cell has no point left, so an
    /// emptied cell goes first). The arguments name the cell's columns or parameters.
    static func cellLeast(level: String, cell: String, month: String, audience: String) -> String {
        let shift = "(2 * (\(MapTile.keyZoom) - \(level)))"
        return """
            (SELECT q.id, q.latitude, q.longitude FROM map_points q WHERE q.id = (SELECT min(p.id) FROM map_points p
                WHERE p.audience = \(audience) AND p.month = \(month)
                AND p.key BETWEEN \(cell) << \(shift) AND ((\(cell) + 1) << \(shift)) - 1))
            """
    }
}

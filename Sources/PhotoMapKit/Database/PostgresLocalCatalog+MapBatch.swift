// SPDX-License-Identifier: Apache-2.0
import Foundation

extension PostgresLocalCatalog {
    /// Puts a batch's points on the map and writes its cells' changes, in a transaction with
    /// `MapGridSQL.batchSetting` on whose points that went are deleted already: the points in one COPY, the
    /// cells and the totals each in one COPY and one upsert in key order; then a cell that lost a point goes
    /// when it is empty and reads its photo again when that point was it, and its totals are summed again.
    func keepMap(points: [MapPoint], changes: MapCellChanges, on connection: PostgresConnection) throws {
        func row(_ values: [PostgresValue]) -> String {
            values.map(\.copyField).joined(separator: "\t") + "\n"
        }
        if !points.isEmpty {
            try connection.copy(
                "COPY map_points (id, key, month, latitude, longitude, audience) FROM STDIN",
                rows: points.lazy.map { point in
                    row([
                        .text(point.id), .int64(point.key), .integer(point.month), .double(point.latitude),
                        .double(point.longitude), .integer(point.audience),
                    ])
                })
        }
        guard !changes.isEmpty else { return }
        try connection.execute(
            """
            CREATE TEMPORARY TABLE incoming_cells (level smallint, cell bigint, month integer, audience smallint,
                count integer, sum_latitude bigint, sum_longitude bigint, photo text COLLATE "C",
                latitude double precision, longitude double precision, lost boolean) ON COMMIT DROP
            """)
        try connection.copy(
            "COPY incoming_cells FROM STDIN",
            rows: changes.sorted.lazy.map { cell, change in
                let least = MapCellChanges.columns(of: change.leastAdded)
                return row([
                    .integer(cell.level), .int64(cell.cell), .integer(cell.month), .integer(cell.audience),
                    .integer(change.count), .int64(change.sumLatitude), .int64(change.sumLongitude), .text(least.id),
                    .double(least.latitude), .double(least.longitude), .bool(change.lost),
                ])
            })
        try connection.execute(
            MapGridSQL.cellUpsert(
                "SELECT level, cell, month, audience, count, sum_latitude, sum_longitude, photo, latitude, longitude "
                    + "FROM incoming_cells ORDER BY level, audience, cell, month"))
        try connection.execute(
            """
            CREATE TEMPORARY TABLE incoming_totals (level smallint, cell bigint, audience smallint, count integer,
                sum_latitude bigint, sum_longitude bigint, photo text COLLATE "C", first_month integer,
                last_month integer, latitude double precision, longitude double precision, lost boolean) ON COMMIT DROP
            """)
        try connection.copy(
            "COPY incoming_totals FROM STDIN",
            rows: changes.totals.lazy.map { cell, change in
                let least = MapCellChanges.columns(of: change.leastAdded)
                return row([
                    .integer(cell.level), .int64(cell.cell), .integer(cell.audience), .integer(change.count),
                    .int64(change.sumLatitude), .int64(change.sumLongitude), .text(least.id),
                    .optional(change.firstAdded, PostgresValue.integer), .integer(change.lastAdded),
                    .double(least.latitude), .double(least.longitude), .bool(change.lost),
                ])
            })
        try connection.execute(
            MapGridSQL.totalUpsert(
                "SELECT level, cell, audience, count, sum_latitude, sum_longitude, photo, first_month, last_month, "
                    + "latitude, longitude FROM incoming_totals ORDER BY level, audience, cell", least: "least",
                greatest: "greatest"))
        guard !changes.removed.isEmpty else { return }
        try connection.execute("CREATE TEMPORARY TABLE gone_points (id text COLLATE \"C\") ON COMMIT DROP")
        try connection.copy(
            "COPY gone_points FROM STDIN", rows: changes.removed.lazy.map { PostgresConnection.copyField($0) + "\n" })
        let lost = "i.lost AND c.level = i.level AND c.cell = i.cell AND c.month = i.month AND c.audience = i.audience"
        try connection.execute("DELETE FROM map_cells c USING incoming_cells i WHERE \(lost) AND c.count <= 0")
        try connection.execute(
            """
            UPDATE map_cells c
            SET (photo, latitude, longitude) =
                \(MapGridSQL.cellLeast(level: "c.level", cell: "c.cell", month: "c.month", audience: "c.audience"))
            FROM incoming_cells i WHERE \(lost) AND c.photo IN (SELECT id FROM gone_points)
            """)
        for statement in MapGridSQL.totalsRecount(
            where: "EXISTS (SELECT 1 FROM incoming_totals i WHERE i.lost AND i.level = map_totals.level "
                + "AND i.cell = map_totals.cell AND i.audience = map_totals.audience)")
        {
            try connection.execute(statement)
        }
    }
}

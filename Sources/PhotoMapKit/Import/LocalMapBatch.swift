// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport

/// A batch's share of the map in the SQLite catalog, kept by the batch while the triggers are away
/// (`LocalCatalog.keepRecords`): each photo written replaces its point at once (the next record of the same
/// id finds it there), and the cells' and totals' changes, gathered by `MapCellChanges`, are written once at
/// the end, a row a statement in key order.
struct LocalMapBatch {
    private let database: SQLiteDatabase
    private let removePoint: SQLiteStatement
    private let addPoint: SQLiteStatement
    private var changes = MapCellChanges()

    init(_ database: SQLiteDatabase) throws {
        self.database = database
        removePoint = try database.prepare(
            "DELETE FROM map_points WHERE id = ? RETURNING key, month, latitude, longitude, audience")
        addPoint = try database.prepare(
            "INSERT INTO map_points (id, key, month, latitude, longitude, audience) VALUES (?, ?, ?, ?, ?, ?)")
    }

    /// Takes photo `id`'s point off the map, and puts `point` on it (nil: the photo is not on the map).
    mutating func replace(_ id: String, with point: MapPoint?) throws {
        try removePoint.bind([.text(id)])
        if try removePoint.step() {
            changes.remove(
                MapPoint(
                    id: id, key: removePoint.integer(0) ?? 0, month: Int(removePoint.integer(1) ?? -1),
                    latitude: removePoint.real(2) ?? 0, longitude: removePoint.real(3) ?? 0,
                    audience: Int(removePoint.integer(4) ?? 0)))
            try removePoint.step()  // RETURNING yields one row; finish the statement
        }
        guard let point else { return }
        try addPoint.bind([
            .text(point.id), .integer(point.key), .integer(Int64(point.month)), .real(point.latitude),
            .real(point.longitude), .integer(Int64(point.audience)),
        ])
        try addPoint.step()
        changes.add(point)
    }

    /// Writes the cells' changes: an emptied cell goes, one whose photo went reads it again from the points.
    func finish() throws {
        guard !changes.isEmpty else { return }
        let upsert = try database.prepare(
            MapGridSQL.cellUpsert("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") + " RETURNING count, photo")
        let remove = try database.prepare(
            "DELETE FROM map_cells WHERE level = ? AND cell = ? AND month = ? AND audience = ?")
        let rephoto = try database.prepare(
            "UPDATE map_cells SET (photo, latitude, longitude) = "
                + MapGridSQL.cellLeast(level: "?1", cell: "?2", month: "?3", audience: "?4")
                + " WHERE level = ?1 AND cell = ?2 AND month = ?3 AND audience = ?4")
        for (cell, change) in changes.sorted {
            let key: [SQLiteValue] = [
                .integer(Int64(cell.level)), .integer(cell.cell), .integer(Int64(cell.month)),
                .integer(Int64(cell.audience)),
            ]
            let least = MapCellChanges.columns(of: change.leastAdded)
            try upsert.bind(
                key + [
                    .integer(Int64(change.count)), .integer(change.sumLatitude), .integer(change.sumLongitude),
                    .text(least.id), .real(least.latitude), .real(least.longitude),
                ])
            guard try upsert.step() else { continue }
            let count = upsert.integer(0) ?? 0, photo = upsert.text(1)
            try upsert.step()  // RETURNING yields one row; finish the statement
            guard change.lost else { continue }
            if count <= 0 {
                try remove.bind(key)
                try remove.step()
            } else if changes.removed.contains(photo) {
                try rephoto.bind(key)
                try rephoto.step()
            }
        }
        let total = try database.prepare(
            MapGridSQL.totalUpsert("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", least: "min", greatest: "max"))
        let recount = try MapGridSQL.totalsRecount(level: "?1", cell: "?2", audience: "?3").map {
            try database.prepare($0)
        }
        for (cell, change) in changes.totals {
            let key: [SQLiteValue] = [.integer(Int64(cell.level)), .integer(cell.cell), .integer(Int64(cell.audience))]
            let least = MapCellChanges.columns(of: change.leastAdded)
            try total.bind(
                key + [
                    .integer(Int64(change.count)), .integer(change.sumLatitude), .integer(change.sumLongitude),
                    .text(least.id), change.firstAdded.map { .integer(Int64($0)) } ?? .null,
                    .integer(Int64(change.lastAdded)), .real(least.latitude), .real(least.longitude),
                ])
            try total.step()
            guard change.lost else { continue }
            for statement in recount {
                try statement.bind(key)
                try statement.step()
            }
        }
    }
}

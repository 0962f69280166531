// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The map of everything from the SQLite catalog: tiles read from the aggregates the triggers of
/// `MapGridSQL` keep, or (deep tiles) from the points.
extension LocalCatalog {
    /// Makes the map's tables and triggers for a catalog made before them, or before the map was as it is
    /// (`hasMap`), counting the photos there.
    func prepareMap() throws {
        guard try !hasMap() else { return }
        try database.transaction {
            try database.execute(MapGridSQL.sqliteTables)
            // Keyed here by `MapTile.key`, the same rule the triggers follow; counted into the cells at
            // once, and the triggers made after.
            let rows = try database.prepare(
                "SELECT id, latitude, longitude, record, location_audience, hidden FROM photos "
                    + "WHERE latitude IS NOT NULL AND longitude IS NOT NULL")
            let insert = try database.prepare("INSERT INTO map_points VALUES (?, ?, ?, ?, ?, ?)")
            let decoder = JSONDecoder()
            while try rows.step() {
                guard let latitude = rows.real(1), let longitude = rows.real(2) else { continue }
                let photo = try decoder.decode(Photo.self, from: rows.withBytes(3) { Data($0) })
                let point = MapPoint(
                    id: rows.text(0), month: MonthTaken.index(photo.dateTaken), latitude: latitude,
                    longitude: longitude,
                    audience: MapAudience.code(
                        Audience(rawValue: rows.text(4)) ?? .private, fenced: rows.integer(5) != 0))
                try insert.bind([
                    .text(point.id), .integer(point.key), .integer(Int64(point.month)), .real(latitude),
                    .real(longitude), .integer(Int64(point.audience)),
                ])
                try insert.step()
            }
            try database.execute(
                MapGridSQL.cellsFromPoints(postgres: false) + MapGridSQL.totalsFromCells + MapGridSQL.sqliteTriggers)
        }
    }

    /// Whether the catalog has the map's tables as this photomap keeps them: one opened to read, made before
    /// them, before they kept every audience and summed in units, before the totals or before cells and
    /// totals kept their least photo's coordinate, has not (the last change made them all: its column).
    private func hasMap() throws -> Bool {
        try ["map_cells", "map_totals"].allSatisfy { table in
            try database.prepare("SELECT 1 FROM pragma_table_info('\(table)') WHERE name = 'latitude'").step()
        }
    }

    public func mapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster] {
        // A catalog without the map's tables, or opened to read before fences, is clustered from its photos.
        guard knowsFences, try hasMap() else { return try naiveMapClusters(in: tile, months: months) }
        let range = months.bounds.map { [SQLiteValue.integer(Int64($0.lower)), .integer(Int64($0.upper))] } ?? []
        let inRange =
            " AND audience IN (\(mapAudienceList))"
            + (range.isEmpty ? "" : " AND month BETWEEN ? AND ?")
        guard MapTile.aggregatedZooms.contains(tile.zoom) else {
            let rows = try database.prepare(
                "SELECT id, key, month, latitude, longitude FROM map_points WHERE key BETWEEN ? AND ?\(inRange)",
                [.integer(tile.keys.lowerBound), .integer(tile.keys.upperBound)] + range)
            var points: [MapPoint] = []
            while try rows.step() {
                points.append(
                    MapPoint(
                        id: rows.text(0), key: rows.integer(1) ?? 0, month: Int(rows.integer(2) ?? -1),
                        latitude: rows.real(3) ?? 0, longitude: rows.real(4) ?? 0, audience: 0))
            }
            return tile.clusters(of: points, months: months)
        }
        let level = tile.cellLevel, source = tile.cellSource(months: months)
        let first = MapTile.cell(ofKey: tile.keys.lowerBound, level: level)
        let last = MapTile.cell(ofKey: tile.keys.upperBound, level: level)
        let rows = try database.prepare(
            """
            SELECT cell, sum(count), sum(sum_latitude), sum(sum_longitude), min(\(source.first)), max(\(source.last)),
                min(photo), min(latitude), min(longitude)
            FROM \(source.table) WHERE level = ? AND cell BETWEEN ? AND ?\(inRange) GROUP BY cell ORDER BY cell
            """, [.integer(Int64(level)), .integer(first), .integer(last)] + range)
        var clusters: [MapCluster] = []
        while try rows.step() {
            let count = Int(rows.integer(1) ?? 0)
            guard count > 0 else { continue }
            clusters.append(
                MapCluster(
                    cell: rows.integer(0) ?? 0, count: count, sums: (rows.real(2) ?? 0, rows.real(3) ?? 0),
                    least: (rows.real(7) ?? 0, rows.real(8) ?? 0), photo: rows.text(6),
                    from: rows.integer(4).map { Int($0) }, last: Int(rows.integer(5) ?? -1)))
        }
        return clusters
    }

    public func mapMonths() throws -> [Int] {
        guard knowsFences, try hasMap() else { return [] }
        let rows = try database.prepare(
            """
            SELECT month, sum(count) FROM map_cells
            WHERE level = ? AND month >= 0 AND audience IN (\(mapAudienceList))
            GROUP BY month ORDER BY month
            """,
            [.integer(Int64(MapTile.cellLevels.lowerBound))])
        var months: [Int] = []
        while try rows.step() { months += [Int(rows.integer(0) ?? 0), Int(rows.integer(1) ?? 0)] }
        return months
    }

    /// The naive way: the photos within the tile's bounds, read whole, clustered here.
    public func naiveMapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster] {
        let bounds = tile.bounds
        let rows = try database.prepare(
            """
            SELECT id, latitude, longitude, record, \(hiddenColumn) FROM photos
            WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
            """, [.real(bounds.south), .real(bounds.north), .real(bounds.west), .real(bounds.east)])
        let decoder = JSONDecoder()
        var points: [MapPoint] = []
        while try rows.step() {
            guard rows.integer(4) != 1, let latitude = rows.real(1), let longitude = rows.real(2) else { continue }
            let photo = try decoder.decode(Photo.self, from: rows.withBytes(3) { Data($0) })
            points.append(
                MapPoint(
                    id: rows.text(0), month: MonthTaken.index(photo.dateTaken), latitude: latitude, longitude: longitude
                ))
        }
        return tile.clusters(of: points, months: months)
    }
}

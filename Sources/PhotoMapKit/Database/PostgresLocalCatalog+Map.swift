// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The map of everything from PostgreSQL: tiles read from the aggregates the triggers of
/// `MapGridSQL.postgres` keep, or (deep tiles) from the points.
extension PostgresLocalCatalog {
    public func mapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster] {
        let range = months.bounds.map { [PostgresValue.integer($0.lower), .integer($0.upper)] } ?? []
        let inRange =
            " AND audience IN (\(mapAudienceList))"
            + (range.isEmpty ? "" : " AND month BETWEEN $3 AND $4")
        guard MapTile.aggregatedZooms.contains(tile.zoom) else {
            let rows = try pool.withConnection { connection in
                try connection.execute(
                    "SELECT id, key, month, latitude, longitude FROM map_points WHERE key BETWEEN $1 AND $2\(inRange)",
                    [.int64(tile.keys.lowerBound), .int64(tile.keys.upperBound)] + range, binaryResult: true)
            }
            let points = try (0..<rows.count).map { row in
                MapPoint(
                    id: rows.text(row, 0) ?? "", key: try rows.int64(row, 1) ?? 0,
                    month: try rows.integer(row, 2) ?? -1,
                    latitude: try rows.real(row, 3) ?? 0, longitude: try rows.real(row, 4) ?? 0, audience: 0)
            }
            return tile.clusters(of: points, months: months)
        }
        let level = tile.cellLevel, source = tile.cellSource(months: months)
        // The sums are integers (`MapGridSQL.units`): exact in any order the plan reads the rows.
        let rows = try pool.withConnection { connection in
            try connection.execute(
                """
                SELECT cell, sum(count), sum(sum_latitude)::float8, sum(sum_longitude)::float8, min(\(source.first)),
                    max(\(source.last)), min(photo), min(latitude), min(longitude)
                FROM \(source.table) WHERE level = \(level) AND cell BETWEEN $1 AND $2\(inRange) GROUP BY cell ORDER BY cell
                """,
                [
                    .int64(MapTile.cell(ofKey: tile.keys.lowerBound, level: level)),
                    .int64(MapTile.cell(ofKey: tile.keys.upperBound, level: level)),
                ] + range, binaryResult: true)
        }
        return try (0..<rows.count).compactMap { row in
            let count = try rows.integer(row, 1) ?? 0
            guard count > 0 else { return nil }
            return MapCluster(
                cell: try rows.int64(row, 0) ?? 0, count: count,
                sums: (try rows.real(row, 2) ?? 0, try rows.real(row, 3) ?? 0),
                least: (try rows.real(row, 7) ?? 0, try rows.real(row, 8) ?? 0), photo: rows.text(row, 6) ?? "",
                from: try rows.integer(row, 4), last: try rows.integer(row, 5) ?? -1)
        }
    }

    public func mapMonths() throws -> [Int] {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                """
                SELECT month, sum(count) FROM map_cells WHERE level = \(MapTile.cellLevels.lowerBound) AND month >= 0
                    AND audience IN (\(mapAudienceList))
                GROUP BY month ORDER BY month
                """, binaryResult: true)
        }
        return try (0..<rows.count).flatMap { [try rows.integer($0, 0) ?? 0, try rows.integer($0, 1) ?? 0] }
    }

    /// The naive way: the photos within the tile's bounds, read whole, clustered here.
    public func naiveMapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster] {
        let bounds = tile.bounds
        let rows = try pool.withConnection { connection in
            try connection.execute(
                """
                SELECT id, latitude, longitude, record, \(hiddenColumn) FROM local_photos
                WHERE latitude BETWEEN $1 AND $2 AND longitude BETWEEN $3 AND $4
                """,
                [.double(bounds.south), .double(bounds.north), .double(bounds.west), .double(bounds.east)],
                binaryResult: true)
        }
        let decoder = JSONDecoder()
        var points: [MapPoint] = []
        for row in 0..<rows.count {
            guard try rows.bool(row, 4) != true, let latitude = try rows.real(row, 1),
                let longitude = try rows.real(row, 2)
            else { continue }
            let photo = try decoder.decode(Photo.self, from: rows.bytes(row, 3) ?? Data())
            points.append(
                MapPoint(
                    id: rows.text(row, 0) ?? "", month: MonthTaken.index(photo.dateTaken), latitude: latitude,
                    longitude: longitude))
        }
        return tile.clusters(of: points, months: months)
    }
}

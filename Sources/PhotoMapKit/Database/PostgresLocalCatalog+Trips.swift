// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension PostgresLocalCatalog {
    /// Every photo with a time taken, read from the columns alone as `LocalCatalog.tripPhotos` reads
    /// them: decoding every record (`allPhotos`) was most of `trips`' time. The rows the viewer may see,
    /// as `allPhotos` lists them, each without its location where that is hidden from the viewer; a
    /// town's centre is its own (the gazetteer's) whoever views, as home is found from it and never
    /// shown. In the order they were first written (`written`), as SQLite's rowids: `Home.mostDays` names
    /// a town of two places by the later one, as it does from `trip_days`.
    public func tripPhotos() throws -> [TripPhoto] {
        try tripPhotos(from: "local_photos", where: "true ORDER BY written")
    }

    /// The photos with a time taken of the rows of `source` (local_photos, maybe joined) that `filter`
    /// (bound to `values`, and what follows the WHERE clause) selects, as the viewer sees them.
    func tripPhotos(from source: String, where filter: String, _ values: [PostgresValue] = []) throws -> [TripPhoto] {
        let (names, rows) = try pool.withConnection { connection in
            (
                try Self.placeNames(on: connection),
                try connection.execute(
                    """
                    SELECT id, date_taken, \(hiddenColumn), place, latitude, longitude FROM \(source)
                    WHERE date_taken IS NOT NULL AND \(visibleRows) AND \(filter)
                    """, values, binaryResult: true)
            )
        }
        var photos: [TripPhoto] = []
        photos.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            guard let taken = rows.text(row, 1) else { continue }
            let shown = try rows.bool(row, 2) != true
            let place = rows.text(row, 3) ?? ""
            let photo = TripPhoto(
                id: rows.text(row, 0) ?? "", taken: taken,
                coordinate: shown ? Coordinate(latitude: try rows.real(row, 4), longitude: try rows.real(row, 5)) : nil,
                named: shown ? names[place] : nil, place: place)
            if let photo { photos.append(photo) }
        }
        return photos
    }

    /// The places' names, by id.
    static func placeNames(on connection: PostgresConnection) throws -> [String: PlaceNames] {
        let rows = try connection.execute(
            "SELECT id, short_name, full_name, latitude, longitude FROM local_places", binaryResult: true)
        var names: [String: PlaceNames] = [:]
        for row in 0..<rows.count {
            let place = Place(
                id: rows.text(row, 0) ?? "", fullName: rows.text(row, 2) ?? "", shortName: rows.text(row, 1) ?? "",
                coordinate: Coordinate(latitude: try rows.real(row, 3), longitude: try rows.real(row, 4)))
            names[place.id] = PlaceNames(place)
        }
        return names
    }
}

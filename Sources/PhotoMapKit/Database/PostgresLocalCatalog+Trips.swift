// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension PostgresLocalCatalog {
    /// Every photo with a time taken, read from the columns alone as `LocalCatalog.tripPhotos` reads
    /// them: decoding every record (`allPhotos`) was most of `trips`' time. The rows the viewer may see,
    /// as `allPhotos` lists them, each without its location where that is hidden from the viewer; a
    /// town's centre is its own (the gazetteer's) whoever views, as home is found from it and never
    /// shown. In the order the rows lie: no use depends on it.
    public func tripPhotos() throws -> [TripPhoto] {
        let (placeRows, rows) = try pool.withConnection { connection in
            (
                try connection.execute(
                    "SELECT id, short_name, full_name, latitude, longitude FROM local_places", binaryResult: true),
                try connection.execute(
                    """
                    SELECT id, date_taken, \(hiddenColumn), place, latitude, longitude FROM local_photos
                    WHERE date_taken IS NOT NULL AND \(visibleRows)
                    """, binaryResult: true)
            )
        }
        var names: [String: PlaceNames] = [:]
        for row in 0..<placeRows.count {
            let place = Place(
                id: placeRows.text(row, 0) ?? "", fullName: placeRows.text(row, 2) ?? "",
                shortName: placeRows.text(row, 1) ?? "",
                coordinate: Coordinate(latitude: try placeRows.real(row, 3), longitude: try placeRows.real(row, 4)))
            names[place.id] = PlaceNames(place)
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
}

extension PostgresLocalCatalog {
    /// None kept here yet: trips on PostgreSQL are found from `tripPhotos()`.
    public func tripDays() throws -> [TripDay]? { nil }

    public func tripPhotos(in spans: [ClosedRange<String>]) throws -> [TripPhoto] {
        try tripPhotos().filter { photo in spans.contains { $0.contains(photo.date) } }
    }
}

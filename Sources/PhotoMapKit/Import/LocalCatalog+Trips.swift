// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    /// Every photo with a time taken, as `TripPhoto.photos(_:places:)` makes them from `allPhotos()` and
    /// `places()`, read from the columns alone: decoding 100,000 whole records took 1.6 s of `trips`'
    /// 2.3 s, and reading their time with SQLite's JSON reader most of a second still (a catalog made
    /// before the column of the time taken, opened to read, is read so). In the order the rows lie, not
    /// by id: reading them through the ids' index took three times as long, and no use depends on it
    /// (`Home.mostDays` names a town of two places by the one of the later row; `trip_days` keeps it).
    public func tripPhotos() throws -> [TripPhoto] {
        try tripPhotos(where: visibleRows)
    }

    /// The places' names, by id.
    func placeNames() throws -> [String: PlaceNames] {
        let placeRows = try database.prepare("SELECT id, short_name, full_name, latitude, longitude FROM places")
        var names: [String: PlaceNames] = [:]
        while try placeRows.step() {
            let place = Place(
                id: placeRows.text(0), fullName: placeRows.text(2), shortName: placeRows.text(1),
                coordinate: Coordinate(latitude: placeRows.real(3), longitude: placeRows.real(4)))
            names[place.id] = PlaceNames(place)
        }
        return names
    }

    /// The photos with a time taken of the rows `filter` (bound to `values`) selects.
    func tripPhotos(
        where filter: String, _ values: [SQLiteValue] = [], names: [String: PlaceNames]? = nil
    ) throws -> [TripPhoto] {
        let names = try names ?? placeNames()
        let taken = knowsDateTaken ? "date_taken" : "json_extract(CAST(record AS TEXT), '$.dateTaken')"
        let rows = try database.prepare(
            """
            SELECT id, \(taken), \(hiddenColumn), place, latitude, longitude
            FROM photos WHERE \(filter)
            """, values)
        var photos: [TripPhoto] = []
        while try rows.step() {
            guard let taken = rows.optionalText(1) else { continue }
            let shown = rows.integer(2) != 1
            let place = rows.text(3)
            let photo = TripPhoto(
                id: rows.text(0), taken: taken,
                coordinate: shown ? Coordinate(latitude: rows.real(4), longitude: rows.real(5)) : nil,
                named: shown ? names[place] : nil, place: place)
            if let photo { photos.append(photo) }
        }
        return photos
    }
}

import Foundation

extension LocalCatalog {
    /// A photo as geotagging sees it: its clock, its camera, and its location with where it came from.
    struct ClockedPhoto {
        let id: String
        /// Nil for photos without DateTimeOriginal, or imported before clocks were kept.
        let clock: PhotoClock?
        let camera: String?
        let coordinate: Coordinate?
        let source: LocationSource?
    }

    /// Every photo, by id, as geotagging sees it.
    func clockedPhotos() throws -> [ClockedPhoto] {
        let rows = try database.prepare(
            "SELECT id, clock, subsecond, clock_offset, make, model, latitude, longitude, location_source FROM photos ORDER BY id"
        )
        var photos: [ClockedPhoto] = []
        while try rows.step() {
            let clock = rows.optionalText(1).flatMap {
                PhotoClock(
                    local: $0, subSecond: rows.optionalText(2),
                    utcOffsetSeconds: rows.integer(3).map { Int($0) })
            }
            let make = rows.optionalText(4)
            let model = rows.optionalText(5)
            // Length-prefixed, so that no make and model run together into another's.
            let camera =
                make == nil && model == nil
                ? nil : [make ?? "", model ?? ""].map { "\($0.utf8.count):\($0)" }.joined()
            let coordinate = Coordinate(latitude: rows.real(6), longitude: rows.real(7))
            photos.append(
                ClockedPhoto(
                    id: rows.text(0), clock: clock, camera: camera, coordinate: coordinate,
                    source: coordinate == nil
                        ? nil
                        // Located photos of a catalog made before sources were kept: their own GPS.
                        : rows.optionalText(8).flatMap(LocationSource.init(rawValue:)) ?? .exif))
        }
        return photos
    }

    /// A location a track or a neighbour gives a photo.
    struct Located {
        let id: String
        let coordinate: Coordinate
        let place: LocalPlace
        let source: LocationSource
        /// Of an estimate: the seconds to the photo it was taken from.
        let estimateOffset: Int?
    }

    /// Gives photos the locations tracks or neighbours put them at, and their places, in one transaction;
    /// returns their records as written.
    func locate(_ located: [Located]) throws -> [Photo] {
        guard !located.isEmpty else { return [] }
        let decoder = JSONDecoder()
        var written: [Photo] = []
        written.reserveCapacity(located.count)
        try database.transaction {
            for entry in located {
                let row = try database.prepare("SELECT record FROM photos WHERE id = ?", [.text(entry.id)])
                guard try row.step() else { continue }
                var photo = try decoder.decode(Photo.self, from: row.withBytes(0) { Data($0) })
                photo.coordinate = entry.coordinate
                photo.placeID = entry.place.id
                photo.locationSource = entry.source
                photo.estimateOffset = entry.source == .estimated ? entry.estimateOffset : nil
                try keep(entry.place)
                try database.prepare(
                    """
                    UPDATE photos SET place = ?, latitude = ?, longitude = ?, record = ?, location_source = ?
                    WHERE id = ?
                    """,
                    [
                        .text(entry.place.id), .real(entry.coordinate.latitude), .real(entry.coordinate.longitude),
                        .blob(Array(try JSONOutput.data(photo))), .text(entry.source.rawValue), .text(entry.id),
                    ]
                ).step()
                written.append(photo)
            }
            try refreshHidden()
            try database.prepare(
                "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
            ).step()
        }
        return written
    }
}

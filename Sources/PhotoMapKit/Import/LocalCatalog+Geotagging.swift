import Foundation

extension LocalCatalog {
    /// The photos a track may locate: those without a location, and those located from a track before
    /// (with that location); with their clocks (nil for photos imported before clocks were kept).
    func photosToLocate() throws -> [(id: String, clock: PhotoClock?, fromTrack: Coordinate?)] {
        let rows = try database.prepare(
            """
            SELECT id, clock, subsecond, clock_offset, latitude, longitude FROM photos
            WHERE latitude IS NULL OR location_source = 'track' ORDER BY id
            """)
        var photos: [(id: String, clock: PhotoClock?, fromTrack: Coordinate?)] = []
        while try rows.step() {
            let clock = rows.optionalText(1).flatMap {
                PhotoClock(
                    local: $0, subSecond: rows.optionalText(2),
                    utcOffsetSeconds: rows.integer(3).map { Int($0) })
            }
            photos.append((rows.text(0), clock, Coordinate(latitude: rows.real(4), longitude: rows.real(5))))
        }
        return photos
    }

    /// Gives photos the locations tracks put them at, and their places, in one transaction.
    func locate(fromTracks located: [(id: String, coordinate: Coordinate, place: LocalPlace)]) throws {
        guard !located.isEmpty else { return }
        let decoder = JSONDecoder()
        try database.transaction {
            for (id, coordinate, place) in located {
                let row = try database.prepare("SELECT record FROM photos WHERE id = ?", [.text(id)])
                guard try row.step() else { continue }
                var photo = try decoder.decode(Photo.self, from: row.withBytes(0) { Data($0) })
                photo.coordinate = coordinate
                photo.placeID = place.id
                photo.locationSource = .track
                try keep(place)
                try database.prepare(
                    """
                    UPDATE photos SET place = ?, latitude = ?, longitude = ?, record = ?, location_source = ?
                    WHERE id = ?
                    """,
                    [
                        .text(place.id), .real(coordinate.latitude), .real(coordinate.longitude),
                        .blob(Array(try JSONOutput.data(photo))), .text(LocationSource.track.rawValue), .text(id),
                    ]
                ).step()
            }
            try database.prepare(
                "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
            ).step()
        }
    }
}

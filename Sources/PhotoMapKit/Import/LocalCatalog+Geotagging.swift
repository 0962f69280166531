// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    public func clockedPhotos() throws -> [ClockedPhoto] {
        let rows = try database.prepare(
            "SELECT id, clock, subsecond, clock_offset, make, model, latitude, longitude, location_source FROM photos ORDER BY id"
        )
        var photos: [ClockedPhoto] = []
        while try rows.step() {
            photos.append(
                ClockedPhoto(
                    id: rows.text(0), clock: rows.optionalText(1), subSecond: rows.optionalText(2),
                    clockOffset: rows.integer(3).map { Int($0) }, make: rows.optionalText(4),
                    model: rows.optionalText(5), latitude: rows.real(6), longitude: rows.real(7),
                    source: rows.optionalText(8)))
        }
        return photos
    }

    public func locate(_ located: [LocatedPhoto]) throws -> [Photo] {
        guard !located.isEmpty else { return [] }
        let decoder = JSONDecoder()
        var written: [Photo] = []
        written.reserveCapacity(located.count)
        try database.transaction {
            for entry in located {
                let row = try database.prepare("SELECT record FROM photos WHERE id = ?", [.text(entry.id)])
                guard try row.step() else { continue }
                let photo = entry.applied(to: try decoder.decode(Photo.self, from: row.withBytes(0) { Data($0) }))
                try keep(entry.place)
                try database.prepare(
                    """
                    UPDATE photos SET place = ?, latitude = ?, longitude = ?, record = ?, location_source = ?
                    WHERE id = ?
                    """,
                    [
                        .text(entry.place.id), entry.coordinate.map { .real($0.latitude) } ?? .null,
                        entry.coordinate.map { .real($0.longitude) } ?? .null, .blob(Array(try JSONOutput.data(photo))),
                        entry.source.map { .text($0.rawValue) } ?? .null, .text(entry.id),
                    ]
                ).step()
                written.append(photo)
            }
            try refreshHidden(of: written.map(\.id))
            try database.prepare(
                "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
            ).step()
        }
        return written
    }
}

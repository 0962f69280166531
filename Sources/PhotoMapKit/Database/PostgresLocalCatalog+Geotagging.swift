// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// What `geotag` and `import --gpx` read and write in PostgreSQL: the same rows as `LocalCatalog`'s, so that
/// `PhotoGeotagger` gives both catalogs the same answer. Bulk writes go through `COPY` (`merge`).
extension PostgresLocalCatalog {
    public func clockedPhotos() throws -> [ClockedPhoto] {
        let rows = try pool.withConnection { connection in
            // Binary rows: each double exactly as stored. Ids in byte order, as SQLite orders them.
            try connection.execute(
                """
                SELECT id, clock, subsecond, clock_offset, make, model, latitude, longitude, location_source
                FROM local_photos ORDER BY id COLLATE "C"
                """, binaryResult: true)
        }
        return try (0..<rows.count).map { row in
            ClockedPhoto(
                id: rows.text(row, 0) ?? "", clock: rows.text(row, 1), subSecond: rows.text(row, 2),
                clockOffset: try rows.integer(row, 3), make: rows.text(row, 4), model: rows.text(row, 5),
                latitude: try rows.real(row, 6), longitude: try rows.real(row, 7), source: rows.text(row, 8))
        }
    }

    public func locate(_ located: [LocatedPhoto]) throws -> [Photo] {
        guard !located.isEmpty else { return [] }
        return try pool.transaction { connection in
            try connection.liftTimeouts()
            // The records, locked until the commit: no import removes one meanwhile.
            let rows = try connection.execute(
                "SELECT id, record FROM local_photos WHERE id = ANY (string_to_array($1, ' ')) FOR UPDATE",
                [.text(located.map(\.id).joined(separator: " "))], binaryResult: true)
            let decoder = JSONDecoder()
            var records: [String: Photo] = [:]
            for row in 0..<rows.count {
                records[rows.text(row, 0) ?? ""] = try decoder.decode(Photo.self, from: rows.bytes(row, 1) ?? Data())
            }
            var written: [Photo] = []
            var updates: [[PostgresValue]] = []
            var places: [String: LocalPlace] = [:]
            for entry in located {
                guard let record = records[entry.id] else { continue }
                let photo = entry.applied(to: record)
                places[entry.place.id] = entry.place
                updates.append([
                    .text(entry.id), .text(entry.place.id), .optional(entry.coordinate?.latitude, PostgresValue.double),
                    .optional(entry.coordinate?.longitude, PostgresValue.double), .bytes(try JSONOutput.data(photo)),
                    .optional(entry.source?.rawValue, PostgresValue.text),
                ])
                written.append(photo)
            }
            try connection.merge(
                into: "local_places", columns: ["id", "short_name", "full_name", "latitude", "longitude"],
                key: "id", replacing: false,
                rows: places.values.map { place in
                    [
                        .text(place.id), .text(place.shortName), .text(place.fullName),
                        .optional(place.coordinate?.latitude, PostgresValue.double),
                        .optional(place.coordinate?.longitude, PostgresValue.double),
                    ]
                })
            // Every id is there (locked above): the merge only updates.
            try connection.merge(
                into: "local_photos", columns: ["id", "place", "latitude", "longitude", "record", "location_source"],
                key: "id", replacing: true, rows: updates)
            try Self.refreshHidden(of: written.map(\.id), on: connection)
            try connection.execute("UPDATE local_version SET version = version + 1")
            return written
        }
    }

    public func keep(_ tracks: TrackLines) throws {
        guard !tracks.isEmpty else { return }
        try pool.transaction { connection in
            try connection.liftTimeouts()
            let kept = try connection.execute("SELECT coalesce(max(position), 0), count(*) FROM local_track_lines")
            let last = try kept.integer(0, 0)
            let before = try kept.integer(0, 1)
            let rows = zip(tracks.lines, tracks.starts).enumerated().map { index, line in
                let bytes = TrackLineBytes.bytes(of: line.0)
                return [
                    .bytes(Data(SHA256.digest(bytes))), .integer((last ?? 0) + index + 1), .bytes(Data(bytes)),
                    line.1.map { .double($0) } ?? .null,
                ] as [PostgresValue]
            }
            // A line kept before keeps its place.
            try connection.merge(
                into: "local_track_lines", columns: ["digest", "position", "points", "started"], key: "digest",
                replacing: false, rows: rows)
            // A new line moves the version on, so that every running `serve` draws it.
            if try connection.execute("SELECT count(*) FROM local_track_lines").integer(0, 0) != before {
                try connection.execute("UPDATE local_version SET version = version + 1")
            }
        }
    }

    public func keptTrackLines() throws -> TrackLines {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "SELECT points, started FROM local_track_lines ORDER BY position, digest", binaryResult: true)
        }
        return TrackLines(
            (0..<rows.count).map { row in
                (rows.bytes(row, 0) ?? Data()).withUnsafeBytes { TrackLineBytes.line(of: $0) }
            }, starts: try (0..<rows.count).map { try rows.real($0, 1) })
    }
}

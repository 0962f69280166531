// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension PostgresLocalCatalog {
    public func keepRecords(_ records: [RecordPhoto], privacy: PhotoPrivacy) throws -> [Photo] {
        guard !records.isEmpty else { return [] }
        func number(_ value: Double?) -> PostgresValue { .optional(value, PostgresValue.double) }
        return try pool.transaction { connection in
            try connection.liftTimeouts()
            // The batch keeps the map itself (`keepMap`): the triggers leave its rows alone.
            try connection.execute("SET LOCAL \(MapGridSQL.batchSetting) = 'on'")
            let hidden = try Self.fences(on: connection).hiddenIDs(
                records.compactMap { record in record.photo.coordinate.map { (record.photo.id, $0) } })
            var places: [String: LocalPlace] = [:]
            for record in records { places[record.place.id] = record.place }
            if !hidden.isEmpty { places[LocalPlace.unlocatedID] = .unlocated }
            try connection.merge(
                into: "local_places", columns: ["id", "short_name", "full_name", "latitude", "longitude"],
                key: "id", replacing: false,
                rows: places.values.map { place in
                    [
                        .text(place.id), .text(place.shortName), .text(place.fullName),
                        number(place.coordinate?.latitude), number(place.coordinate?.longitude),
                    ]
                })
            try connection.execute(
                """
                CREATE TEMPORARY TABLE incoming_records (id text, place text, taken double precision,
                    latitude double precision, longitude double precision, record bytea, hidden boolean, path bytea,
                    date_taken text, ordinal bigserial) ON COMMIT DROP
                """)
            let rows = try records.map { record in
                let fields: [PostgresValue] = [
                    .text(record.photo.id), .text(record.place.id), number(record.taken),
                    number(record.photo.coordinate?.latitude), number(record.photo.coordinate?.longitude),
                    .bytes(try record.record()), .bool(hidden.contains(record.photo.id)),
                    .bytes(Data(RecordSource.path(photoID: record.photo.id, image: record.image))),
                    .optional(record.photo.dateTaken, PostgresValue.text),
                ]
                return fields.map(\.copyField).joined(separator: "\t") + "\n"
            }
            try connection.copy(
                "COPY incoming_records (id, place, taken, latitude, longitude, record, hidden, path, date_taken) FROM STDIN",
                rows: rows)
            // The last record of an id wins; one as the catalog holds it already is not written again. A
            // photo written leaves the map where it was (its point as the map held it comes back).
            let latest = "SELECT DISTINCT ON (id) * FROM incoming_records ORDER BY id, ordinal DESC"
            let photos = try connection.execute(
                """
                WITH written AS (
                    INSERT INTO local_photos (id, place, taken, latitude, longitude, record, hidden, date_taken,
                        visibility, location_audience)
                    SELECT id, place, taken, latitude, longitude, record, hidden, date_taken, $1, $2
                    FROM (\(latest)) latest
                    ON CONFLICT (id) DO UPDATE SET place = excluded.place, taken = excluded.taken,
                        latitude = excluded.latitude, longitude = excluded.longitude, record = excluded.record,
                        hidden = excluded.hidden, date_taken = excluded.date_taken
                    WHERE local_photos.record IS DISTINCT FROM excluded.record
                        OR local_photos.hidden IS DISTINCT FROM excluded.hidden
                    RETURNING id, \(MapAudience.sql(location: "location_audience", hidden: "hidden")) AS audience),
                gone AS (DELETE FROM map_points m USING written w WHERE m.id = w.id
                    RETURNING m.id, m.key, m.month, m.latitude, m.longitude, m.audience)
                SELECT w.id, w.audience, g.key, g.month, g.latitude, g.longitude, g.audience
                FROM written w LEFT JOIN gone g USING (id)
                """, [.text(privacy.visibility.rawValue), .text(privacy.location.rawValue)], binaryResult: true)
            let files = try connection.execute(
                """
                WITH latest AS (\(latest)),
                gone AS (DELETE FROM local_files f USING latest WHERE f.photo = latest.id AND f.path <> latest.path
                    RETURNING f.photo)
                INSERT INTO local_files (path, size, modified, inode, photo, problem, other)
                SELECT path, 0, 0, 0, id, NULL, false FROM latest ON CONFLICT (path) DO NOTHING RETURNING photo
                """)
            var latestRecords: [String: RecordPhoto] = [:]
            for record in records { latestRecords[record.photo.id] = record }
            var changes = MapCellChanges(), points: [MapPoint] = []
            var changedIDs: Set<String> = []
            for row in 0..<photos.count {
                let id = photos.text(row, 0) ?? ""
                changedIDs.insert(id)
                if let key = try photos.int64(row, 2), let month = try photos.integer(row, 3),
                    let latitude = try photos.real(row, 4), let longitude = try photos.real(row, 5),
                    let audience = try photos.integer(row, 6)
                {
                    changes.remove(
                        MapPoint(
                            id: id, key: key, month: month, latitude: latitude, longitude: longitude, audience: audience
                        ))
                }
                guard let record = latestRecords[id], let coordinate = record.photo.coordinate else { continue }
                let point = MapPoint(
                    id: id, month: MonthTaken.index(record.photo.dateTaken), latitude: coordinate.latitude,
                    longitude: coordinate.longitude,
                    audience: try photos.integer(row, 1) ?? MapAudience.narrowest)
                points.append(point)
                changes.add(point)
            }
            try keepMap(points: points, changes: changes, on: connection)
            for row in 0..<files.count { changedIDs.insert(files.text(row, 0) ?? "") }
            guard !changedIDs.isEmpty else { return [] }
            try connection.execute("UPDATE local_version SET version = version + 1")
            var changed: [String: Photo] = [:]
            for record in records where changedIDs.contains(record.photo.id) { changed[record.photo.id] = record.photo }
            return records.compactMap { changed.removeValue(forKey: $0.photo.id) }
        }
    }
}

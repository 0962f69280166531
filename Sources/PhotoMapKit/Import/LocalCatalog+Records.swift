// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    /// The page cache of a connection writing batches of records, in KiB.
    static let batchCacheKiB = 64 * 1024

    public func keepRecords(_ records: [RecordPhoto], privacy: PhotoPrivacy) throws -> [Photo] {
        // A batch's pages stay in memory until it commits: with SQLite's 2 MB cache they spilled to the WAL
        // and were written again and again (130 writes a record), and the statements' journals went to files.
        try database.execute("PRAGMA cache_size = -\(Self.batchCacheKiB); PRAGMA temp_store = MEMORY")
        return try database.transaction {
            // The batch keeps the map itself (`keepMap`): the triggers go until it ends, in its transaction,
            // so no other connection ever sees the catalog without them.
            let triggers = MapGridSQL.sqliteBatchTriggers
            try database.execute(triggers.map { "DROP TRIGGER IF EXISTS \($0.name);" }.joined(separator: " "))
            let hidden = try fences().hiddenIDs(
                records.compactMap { record in record.photo.coordinate.map { (record.photo.id, $0) } })
            if !hidden.isEmpty { try keep(.unlocated) }
            var places: Set<String> = []
            // One statement each, bound again per record: a batch of 10,000 prepares a few, not 50,000.
            // A record as it is already changes nothing: no row is written, the version stays.
            let photo = try database.prepare(
                """
                INSERT INTO photos (id, place, taken, latitude, longitude, record, hidden, date_taken, visibility,
                    location_audience)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET place = excluded.place, taken = excluded.taken,
                    latitude = excluded.latitude, longitude = excluded.longitude, record = excluded.record,
                    hidden = excluded.hidden, date_taken = excluded.date_taken
                WHERE photos.record IS NOT excluded.record OR photos.hidden IS NOT excluded.hidden
                RETURNING \(MapAudience.sql(location: "location_audience", hidden: "hidden"))
                """)
            let otherImages = try database.prepare("DELETE FROM files WHERE photo = ? AND path <> ?")
            let file = try database.prepare("INSERT OR IGNORE INTO files VALUES (?, 0, 0, 0, ?, NULL, 0)")
            var map = try LocalMapBatch(database)
            var changed: [Photo] = []
            for record in records {
                if places.insert(record.place.id).inserted { try keep(record.place) }
                let id = record.photo.id
                try photo.bind([
                    .text(id), .text(record.place.id), record.taken.map { .real($0) } ?? .null,
                    record.photo.coordinate.map { .real($0.latitude) } ?? .null,
                    record.photo.coordinate.map { .real($0.longitude) } ?? .null,
                    .blob(Array(try record.record())), .integer(hidden.contains(id) ? 1 : 0),
                    record.photo.dateTaken.map { .text($0) } ?? .null, .text(privacy.visibility.rawValue),
                    .text(privacy.location.rawValue),
                ])
                var wrote = false
                if try photo.step() {
                    wrote = true
                    let audience = Int(photo.integer(0) ?? Int64(MapAudience.narrowest))
                    try photo.step()  // RETURNING yields one row; finish the statement
                    try map.replace(
                        id,
                        with: record.photo.coordinate.map { coordinate in
                            MapPoint(
                                id: id, month: MonthTaken.index(record.photo.dateTaken), latitude: coordinate.latitude,
                                longitude: coordinate.longitude, audience: audience)
                        })
                }
                let path = RecordSource.path(photoID: id, image: record.image)
                try otherImages.bind([.text(id), .blob(path)])
                try otherImages.step()
                try file.bind([.blob(path), .text(id)])
                try file.step()
                wrote = wrote || database.changes > 0
                if wrote { changed.append(record.photo) }
            }
            try map.finish()
            try database.execute(triggers.map(\.statement).joined(separator: "\n"))
            if !changed.isEmpty {
                try database.prepare(
                    "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
                ).step()
            }
            return changed
        }
    }
}

import Foundation

extension LocalCatalog {
    public func keepRecords(_ records: [RecordPhoto]) throws -> [Photo] {
        try database.transaction {
            let hidden = try fences().hiddenIDs(
                records.compactMap { record in record.photo.coordinate.map { (record.photo.id, $0) } })
            if !hidden.isEmpty { try keep(.unlocated) }
            var places: Set<String> = []
            // One statement each, bound again per record: a batch of 10,000 prepares three, not 30,000.
            // A record as it is already changes nothing: no row is written, the version stays.
            let photo = try database.prepare(
                """
                INSERT INTO photos (id, place, taken, latitude, longitude, record, hidden) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET place = excluded.place, taken = excluded.taken,
                    latitude = excluded.latitude, longitude = excluded.longitude, record = excluded.record,
                    hidden = excluded.hidden
                WHERE photos.record IS NOT excluded.record OR photos.hidden IS NOT excluded.hidden
                """)
            let otherImages = try database.prepare("DELETE FROM files WHERE photo = ? AND path <> ?")
            let file = try database.prepare("INSERT OR IGNORE INTO files VALUES (?, 0, 0, 0, ?, NULL, 0)")
            var changed: [Photo] = []
            for record in records {
                if places.insert(record.place.id).inserted { try keep(record.place) }
                let id = record.photo.id
                try photo.bind([
                    .text(id), .text(record.place.id), record.taken.map { .real($0) } ?? .null,
                    record.photo.coordinate.map { .real($0.latitude) } ?? .null,
                    record.photo.coordinate.map { .real($0.longitude) } ?? .null,
                    .blob(Array(try JSONOutput.data(record.photo))), .integer(hidden.contains(id) ? 1 : 0),
                ])
                try photo.step()
                var wrote = database.changes > 0
                let path = RecordSource.path(photoID: id, image: record.image)
                try otherImages.bind([.text(id), .blob(path)])
                try otherImages.step()
                try file.bind([.blob(path), .text(id)])
                try file.step()
                wrote = wrote || database.changes > 0
                if wrote { changed.append(record.photo) }
            }
            if !changed.isEmpty {
                try database.prepare(
                    "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
                ).step()
            }
            return changed
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The recently viewed photos in PostgreSQL, shared by every server using the database: a photo
/// viewed through one is in every other's `/recent`.
public struct PostgresRecents: RecentsStore {
    let pool: PostgresPool

    /// The recents of `pool`'s database.
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// A row that does not decode (written by another version) is left out rather than an error.
    public func photos() throws -> [Photo] {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "SELECT photo FROM recent_photos ORDER BY viewed_at DESC, id LIMIT $1",
                [.integer(Self.capacity)], binaryResult: true)
        }
        return (0..<rows.count).compactMap { row in
            rows.bytes(row, 0).flatMap { try? JSONDecoder().decode(Photo.self, from: $0) }
        }
    }

    public func viewed(_ photo: Photo) throws {
        let encoded = try JSONOutput.data(photo)
        try pool.transaction { connection in
            try connection.execute(
                """
                INSERT INTO recent_photos (id, photo, viewed_at) VALUES ($1, $2, clock_timestamp())
                ON CONFLICT (id) DO UPDATE SET photo = excluded.photo, viewed_at = excluded.viewed_at
                """, [.text(photo.id), .bytes(encoded)])
            try connection.execute(
                """
                DELETE FROM recent_photos WHERE id IN
                    (SELECT id FROM recent_photos ORDER BY viewed_at DESC, id OFFSET $1)
                """, [.integer(Self.capacity)])
        }
    }
}

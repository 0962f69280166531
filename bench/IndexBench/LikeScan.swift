// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// The benchmark's baseline, kept out of the library: the same search over the index file's records
/// table without FTS5 or the R*Tree, a LIKE over the titles filtered by the bounding box of the circle.
/// It reads every row; only the benchmark has a use for that.
final class LikeScan {
    private var database: OpaquePointer?
    private var statement: OpaquePointer?

    /// Opens the index file read-only.
    init(file: URL) throws {
        guard sqlite3_open_v2(file.path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            sqlite3_prepare_v2(
                database,
                """
                SELECT count(*) FROM (SELECT r.rowid FROM records r
                WHERE r.latitude BETWEEN ? AND ? AND r.longitude BETWEEN ? AND ? AND r.title LIKE ? LIMIT ?)
                """, -1, &statement, nil) == SQLITE_OK
        else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(database)
            throw SQLiteError(message: message, code: SQLITE_ERROR, path: file.path)
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(database)
    }

    /// How many records within the box around `centre` (`radiusKilometres` each way) have `word` in their title.
    func count(_ word: String, near centre: Coordinate, radiusKilometres: Double, limit: Int) -> Int {
        let latitudeSpan = radiusKilometres / 111.2
        let longitudeSpan = radiusKilometres / (111.2 * max(cos(centre.latitude * .pi / 180), 0.01))
        sqlite3_reset(statement)
        sqlite3_bind_double(statement, 1, centre.latitude - latitudeSpan)
        sqlite3_bind_double(statement, 2, centre.latitude + latitudeSpan)
        sqlite3_bind_double(statement, 3, centre.longitude - longitudeSpan)
        sqlite3_bind_double(statement, 4, centre.longitude + longitudeSpan)
        let pattern = "%\(word)%"
        _ = photomap_sqlite_bind_text(statement, 5, pattern, Int32(pattern.utf8.count))
        sqlite3_bind_int64(statement, 6, Int64(limit))
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : 0
    }
}

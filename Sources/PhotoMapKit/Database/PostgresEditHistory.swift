// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The owners' recent location edits in PostgreSQL (`location_edits`), shared by every `serve` using the
/// database: an edit made through one instance is undone through any other.
public struct PostgresEditHistory: EditHistory {
    let pool: PostgresPool
    public let depth: Int

    /// The history of `pool`'s database, keeping the last `depth` edits of each owner.
    public init(pool: PostgresPool, depth: Int) {
        self.pool = pool
        self.depth = depth
    }

    public func keep(by owner: String, before: [Photo], after: [Photo]) throws -> String {
        let id = KeptEdit.newID()
        let before = try KeptEdit.encoded(before), after = try KeptEdit.encoded(after)
        try pool.transaction { connection in
            try connection.execute(
                "INSERT INTO location_edits (id, owner, before, after) VALUES ($1, $2, $3, $4)",
                [.text(id), .text(owner), .bytes(before), .bytes(after)])
            try connection.execute(
                """
                DELETE FROM location_edits WHERE owner = $1 AND id NOT IN
                    (SELECT id FROM location_edits WHERE owner = $1 ORDER BY position DESC LIMIT $2)
                """, [.text(owner), .integer(depth)])
        }
        return id
    }

    /// The row is deleted in a transaction held open across `undo` and committed only once it succeeded: a
    /// second undo of the same edit, from any instance, waits on the row's lock and then finds it gone.
    public func take<T>(_ id: String, by owner: String, _ undo: (KeptEdit) throws -> T) throws -> T? {
        try pool.transaction { connection in
            try connection.liftTimeouts()
            let rows = try connection.execute(
                "DELETE FROM location_edits WHERE id = $1 AND owner = $2 RETURNING before, after",
                [.text(id), .text(owner)], binaryResult: true)
            guard rows.count == 1 else { return nil }
            let edit = KeptEdit(
                id: id, before: try KeptEdit.photos(rows.bytes(0, 0) ?? Data()),
                after: try KeptEdit.photos(rows.bytes(0, 1) ?? Data()))
            return try undo(edit)
        }
    }
}

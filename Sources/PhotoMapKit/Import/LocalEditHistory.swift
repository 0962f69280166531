// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The owners' recent location edits in the SQLite catalog (`location_edits` of `local-catalog.sqlite`),
/// so that they outlive a restart of `serve`. Each call opens its own connection.
public struct LocalEditHistory: EditHistory {
    let file: URL
    public let depth: Int

    /// The history of the catalog at `file`, keeping the last `depth` edits of each owner.
    public init(file: URL, depth: Int) {
        self.file = file
        self.depth = depth
    }

    public func keep(by owner: String, before: [Photo], after: [Photo]) throws -> String {
        let id = KeptEdit.newID()
        let before = try KeptEdit.encoded(before), after = try KeptEdit.encoded(after)
        let database = try LocalCatalog(file: file).database
        try database.transaction {
            try database.prepare(
                "INSERT INTO location_edits (id, owner, before, after) VALUES (?, ?, ?, ?)",
                [.text(id), .text(owner), .blob(Array(before)), .blob(Array(after))]
            ).step()
            try database.prepare(
                """
                DELETE FROM location_edits WHERE owner = ? AND id NOT IN
                    (SELECT id FROM location_edits WHERE owner = ? ORDER BY position DESC LIMIT ?)
                """, [.text(owner), .text(owner), .integer(Int64(depth))]
            ).step()
        }
        return id
    }

    /// The row is deleted before `undo` runs and put back, in its place, when `undo` throws: a transaction
    /// held across `undo` would hold SQLite's one write lock that the catalog's own write waits for. So a
    /// second undo of the same edit finds it gone and never applies it twice.
    public func take<T>(_ id: String, by owner: String, _ undo: (KeptEdit) throws -> T) throws -> T? {
        let database = try LocalCatalog(file: file).database
        let taken = try database.transaction { () -> (position: Int64, before: Data, after: Data)? in
            let rows = try database.prepare(
                "DELETE FROM location_edits WHERE id = ? AND owner = ? RETURNING position, before, after",
                [.text(id), .text(owner)])
            guard try rows.step() else { return nil }
            let taken = (rows.integer(0) ?? 0, rows.withBytes(1) { Data($0) }, rows.withBytes(2) { Data($0) })
            while try rows.step() {}
            return taken
        }
        guard let taken else { return nil }
        do {
            return try undo(
                KeptEdit(id: id, before: try KeptEdit.photos(taken.before), after: try KeptEdit.photos(taken.after)))
        } catch {
            // What the undo met is the answer; a failure to put the entry back only loses this undo.
            _ = try? database.prepare(
                "INSERT INTO location_edits (position, id, owner, before, after) VALUES (?, ?, ?, ?, ?)",
                [
                    .integer(taken.position), .text(id), .text(owner), .blob(Array(taken.before)),
                    .blob(Array(taken.after)),
                ]
            ).step()
            throw error
        }
    }
}

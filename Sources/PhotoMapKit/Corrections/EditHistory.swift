// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The recent location edits made through `serve`, kept in the catalog's state so that an undo puts back
/// what the catalog held (the source included), never what a client says it held, whichever instance it
/// reaches and after a restart: the last `depth` edits of each owner, each under an id of 128 random bits.
/// `LocalEditHistory` keeps them in the SQLite catalog, `PostgresEditHistory` in the shared database.
public protocol EditHistory: Sendable {
    /// How many edits of one owner are kept (the page's undo goes back as far).
    var depth: Int { get }

    /// Keeps an edit by `owner` of the photos `before` (as they were) into `after` (as written), forgetting
    /// the owner's edits older than the last `depth`; its id.
    func keep(by owner: String, before: [Photo], after: [Photo]) throws -> String

    /// Takes the edit `id` by `owner` out of the history and runs `undo` on it: when `undo` throws, the
    /// edit stays. Nil, and `undo` not run, when the edit was never made, is someone else's, is no longer
    /// kept, or was taken already (another undo taking it meanwhile waits for this one to end).
    func take<T>(_ id: String, by owner: String, _ undo: (KeptEdit) throws -> T) throws -> T?
}

/// One kept edit: its photos as they were before it, and as it left them.
public struct KeptEdit: Sendable {
    /// What `{"undo": EDIT}` names.
    public let id: String
    public let before: [Photo]
    public let after: [Photo]

    /// A new edit's id: 128 random bits as 32 lowercase hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }

    /// Whether `id` has the form of an edit's id: 32 lowercase hex digits.
    package static func isValid(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The photos of a stored column: JSON as `encoded` wrote it.
    static func photos(_ data: Data) throws -> [Photo] {
        try JSONDecoder().decode([Photo].self, from: data)
    }

    /// Photos as a stored column holds them.
    static func encoded(_ photos: [Photo]) throws -> Data {
        try JSONOutput.data(photos)
    }
}

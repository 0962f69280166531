// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The local search index, whichever engine holds it: SQLite in the cache folder (`LocalIndex`) or
/// PostgreSQL shared by several machines (`PostgresIndex`). Both answer the same search with the same
/// hits: words matched as word beginnings, accents folded, within the radius, ranked by bm25 relevance
/// then distance (`LocalIndex.rank`). A handle belongs to one thread at a time.
public protocol SearchIndex {
    /// Adds or replaces records (by kind and id) at once; `origin` tells the embedded catalog's
    /// records ("catalog") from those fetched, so a new catalog replaces only its own.
    func add(_ records: [IndexRecord], origin: String) throws
    /// Records whose text matches every word of `query`, within `radiusKilometres` of `centre`
    /// (anywhere without one), best first, at most `limit`; with `photoIDs`, only those photos.
    func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double, limit: Int,
        photoIDs: [String]?
    ) throws -> [SearchHit]
    /// The photo of that id, as it was indexed (any source, any server sharing the index); nil when none was.
    func photo(id: String) throws -> Photo?
    /// How many records it holds.
    func count() throws -> Int
    /// A stored marker (which catalog was indexed, which listings were recorded).
    func marker(_ key: String) throws -> String?
    /// Stores a marker.
    func setMarker(_ key: String, _ value: String) throws
    /// Removes the records of one origin.
    func remove(origin: String) throws
    /// Removes the photos of those ids of one origin (any not held is no error), so a catalog change
    /// that drops photos updates their records only.
    func remove(photos ids: [String], origin: String) throws
}

extension SearchIndex {
    /// Adds fetched records.
    public func add(_ records: [IndexRecord]) throws {
        try add(records, origin: "fetched")
    }

    /// Searches every record.
    public func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double,
        limit: Int
    ) throws -> [SearchHit] {
        try search(query, near: centre, radiusKilometres: radiusKilometres, limit: limit, photoIDs: nil)
    }
}

/// Where the index is kept: opens a handle on it for the calling thread.
public protocol SearchIndexStore: Sendable, CustomStringConvertible {
    /// A handle on the index, made if needed.
    func open() throws -> any SearchIndex
    /// A handle on an emptied index, for `index rebuild` (even when the old one is damaged).
    func openEmptied() throws -> any SearchIndex
}

/// The index in a SQLite file of the cache folder.
public struct SQLiteIndexStore: SearchIndexStore {
    /// The index file.
    public let file: URL

    /// The index of the cache folder `cacheDirectory`.
    public init(cacheDirectory: URL) {
        file = LocalIndex.file(in: cacheDirectory)
    }

    public func open() throws -> any SearchIndex { try LocalIndex(file: file) }

    public func openEmptied() throws -> any SearchIndex {
        LocalIndex.delete(file)
        return try LocalIndex(file: file)
    }

    public var description: String { file.path }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Searching the index by words, around a point or among given photos.
extension LocalIndex {
    /// Records whose text matches every word of `query` (each as a word or a word's start), within
    /// `radiusKilometres` of `centre` (anywhere without one), ranked by relevance and distance; at most
    /// `limit`. With `photoIDs`, only those photos (a Flickr search's results, ranked as local ones are).
    public func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double, limit: Int,
        photoIDs: [String]?
    ) throws -> [SearchHit] {
        guard let words = Self.matchExpression(query) else { return [] }
        // Nothing lies within a negative radius, or one that is not a number; and the search box of one
        // would be an inverted range (found by scripts/fuzz local-search).
        guard centre == nil || radiusKilometres >= 0 else { return [] }
        // Cell tokens sit in a column of their own, weighted 0: they narrow, they never match a word.
        let columns = Self.hitColumns(relevance: "bm25(records_text, 1.0, 0.0)")
        let match = "body : (\(words))"
        let statement: SQLiteStatement
        if let photoIDs {
            let list = try JSONOutput.text(photoIDs)
            statement = try database.prepare(
                """
                SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                WHERE records_text MATCH ? AND r.kind = 'photo' AND r.id IN (SELECT value FROM json_each(?))
                """, [.text(match), .text(list)])
        } else if let centre {
            let box = SearchBox(centre: centre, radiusKilometres: radiusKilometres)
            // A common word in a small circle: the circle's rows drive, and FTS5 never reads the word's list.
            if let hits = try searchCircle(
                Self.queryWords(query), box: box, centre: centre,
                radiusKilometres: radiusKilometres, limit: limit)
            {
                return hits
            }
            // Records inside the box, tested in SQL before the relevance cut, so a small circle keeps all it holds.
            let inBox =
                "r.latitude BETWEEN ? AND ? AND ("
                + box.longitudes.map { _ in "r.longitude BETWEEN ? AND ?" }.joined(separator: " OR ") + ")"
            let boxValues: [SQLiteValue] =
                [.real(box.latitudes.lowerBound), .real(box.latitudes.upperBound)]
                + box.longitudes.flatMap { [SQLiteValue.real($0.lowerBound), .real($0.upperBound)] }
            if let cells = box.cellTokens {
                // The words and any of the circle's cells, intersected by FTS5 in C.
                statement = try database.prepare(
                    """
                    SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                    WHERE records_text MATCH ? AND \(inBox) ORDER BY bm25(records_text, 1.0, 0.0) LIMIT ?
                    """,
                    [.text("\(match) AND cell : (\(cells.joined(separator: " OR ")))")] + boxValues
                        + [.integer(Int64(limit * 3 + 50))])
            } else {
                // A wide circle: the R*Tree narrows to its box (two boxes across the antimeridian).
                let rtree = box.longitudes.map { _ in "(w.min_lon >= ? AND w.max_lon <= ?)" }.joined(separator: " OR ")
                statement = try database.prepare(
                    """
                    SELECT \(columns) FROM records_where w
                    JOIN records_text ON records_text.rowid = w.id
                    JOIN records r ON r.rowid = w.id
                    WHERE w.min_lat >= ? AND w.max_lat <= ? AND (\(rtree)) AND records_text MATCH ?
                    """, boxValues + [.text(match)])
            }
        } else {
            statement = try database.prepare(
                """
                SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                WHERE records_text MATCH ? ORDER BY bm25(records_text, 1.0, 0.0) LIMIT ?
                """, [.text(match), .integer(Int64(limit))])
        }
        var hits: [SearchHit] = []
        while try statement.step() {
            guard let annotation = Self.annotation(from: statement),
                let coordinate = annotation.coordinate
            else { continue }
            let distance = centre?.distance(to: coordinate) ?? 0
            guard distance <= radiusKilometres || centre == nil else { continue }
            // SQLite's bm25 is lower for better matches.
            hits.append(
                SearchHit(
                    annotation: annotation, relevance: -(statement.real(11) ?? 0),
                    distanceKilometres: distance))
        }
        return Array(
            hits.sorted {
                Self.rank($0.relevance, $0.distanceKilometres, radiusKilometres)
                    > Self.rank($1.relevance, $1.distanceKilometres, radiusKilometres)
            }.prefix(limit))
    }

    /// Relevance first, nearer breaking near-ties: distance costs up to one relevance point across the radius.
    package static func rank(_ relevance: Double, _ distance: Double, _ radius: Double) -> Double {
        relevance - distance / max(radius, 0.001)
    }

    /// The columns `annotation(from:)` reads, from `records r`, with `relevance` (SQL) as column 11.
    static func hitColumns(relevance: String) -> String {
        "r.kind, r.id, r.title, r.subtitle, r.latitude, r.longitude, r.thumbnail, r.image, r.owner, r.taken, r.count, "
            + "\(relevance), r.page, r.license_id, r.license_name, r.license_url"
    }

    /// The annotation of a row of `hitColumns`; nil without a coordinate or a known kind.
    static func annotation(from statement: SQLiteStatement) -> Annotation? {
        guard let latitude = statement.real(4), let longitude = statement.real(5),
            let coordinate = Coordinate(latitude: latitude, longitude: longitude),
            let kind = Annotation.Kind(rawValue: statement.text(0))
        else { return nil }
        return Annotation(
            kind: kind, id: statement.text(1), title: statement.text(2), subtitle: statement.text(3),
            coordinate: coordinate, photoCount: statement.integer(10).map { Int($0) },
            thumbnailURL: statement.optionalText(6), imageURL: statement.optionalText(7),
            owner: statement.optionalText(8), dateTaken: statement.optionalText(9),
            pageURL: statement.optionalText(12),
            license: statement.optionalText(13).map {
                License(
                    id: $0, name: statement.text(14),
                    url: statement.optionalText(15))
            })
    }

    /// The FTS5 expression for a typed query: each word quoted (so nothing in it is FTS syntax) and
    /// matched as a prefix; every word must match. Nil when the query has no word.
    static func matchExpression(_ query: String) -> String? {
        let words = queryWords(query)
        guard !words.isEmpty else { return nil }
        return words.map(prefixPhrase).joined(separator: " ")
    }

    /// The words of a typed query as FTS5 sees them: FTS5's tokenizer splits at apostrophes ("O'Hare"
    /// is "o" "hare"), so the query must too.
    static func queryWords(_ query: String) -> [String] {
        // Most text has neither apostrophe (’ starts with the byte E2): Foundation's search is not free.
        let split =
            query.utf8.contains { $0 == UInt8(ascii: "'") || $0 == 0xE2 }
            ? query.replacingOccurrences(of: "'", with: " ").replacingOccurrences(of: "’", with: " ") : query
        return SearchText.words(split).map(String.init)
    }

    /// A word quoted for FTS5 (nothing in it is FTS syntax) and matched as a prefix.
    static func prefixPhrase(_ word: String) -> String {
        "\"\(word.replacingOccurrences(of: "\"", with: "\"\""))\"*"
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Searching the index in PostgreSQL. The records holding every word (as a word beginning) near a point,
/// or among given photos, are ranked here by the same bm25 and distance rule as SQLite's
/// (`LocalIndex.bm25`, `LocalIndex.rank`), from the totals and word counts kept beside the records, so
/// both engines give the same hits for the same records. Which rows are read depends on the words and
/// the circle:
/// - words so common that no record's bm25 outweighs the distance across the circle ("bridge", in half
///   the records): the nearest matches in distance order from the GiST index (KNN), until no farther
///   match could outrank the `limit`-th;
/// - a circle of at most `maximumCells` cells: the rarest word in those cells, from `cell_words`' GIN
///   index, so a common word's list of millions of rows is never read;
/// - otherwise (a wide circle, no circle, given photos): the word index, and `ST_DWithin`.
extension PostgresIndex {
    /// The side of `cell_words`' grid in degrees, as migration 3 computes it (never changed without a
    /// migration that computes the column again).
    static let cellDegrees = 0.02
    /// Cells a query may name (a circle about 20 km across at 45°); wider ones use the word index.
    static let maximumCells = 400
    /// Above this many matches in the word index, the database cuts them to its own ranking's best first.
    static let maximumCandidates = 20_000

    public func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double, limit: Int,
        photoIDs: [String]?
    ) throws -> [SearchHit] {
        let words = LocalIndex.queryWords(query)
        guard !words.isEmpty, limit > 0, centre == nil || radiusKilometres >= 0 else { return [] }
        return try pool.withConnection { connection in
            let (records, tokens, counts) = try wordCounts(words, connection)
            let scoring = Scoring(
                needles: words.map { Array($0.utf8) },
                weights: counts.map { LocalIndex.bm25Weight(rows: records, matching: Double($0)) },
                tokensPerRow: tokens / max(records, 1), centre: centre, radius: radiusKilometres, limit: limit)
            if let centre, photoIDs == nil {
                if let nearest = try nearestFirst(words, centre, scoring, connection) {
                    return try shown(nearest, connection)
                }
                if let rows = try cellRows(words, counts, centre, scoring, connection) {
                    return try shown(scoring.ranked(rows), connection)
                }
            }
            return try shown(
                scoring.ranked(try wordIndexRows(words, centre, photoIDs, scoring, connection)), connection)
        }
    }

    /// How a candidate row (kind, id, latitude, longitude, body) ranks.
    struct Scoring {
        let needles: [[UInt8]]
        let weights: [Double]
        let tokensPerRow: Double
        let centre: Coordinate?
        let radius: Double
        let limit: Int

        /// The highest bm25 a record can reach: k1 + 1 = 2.2 times each word's weight, approached as a
        /// word repeats in a short text.
        var ceiling: Double { 2.2 * weights.reduce(0, +) }

        /// The best `limit` of `rows` in the circle (their row numbers as ids), and the distance of the last.
        func ranked(_ rows: PostgresRows) throws -> Ranked {
            var best = BestHits(limit: limit), last = 0.0
            for row in 0..<rows.count {
                guard let latitude = try rows.real(row, 2), let longitude = try rows.real(row, 3),
                    let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                else { continue }
                let distance = centre?.distance(to: coordinate) ?? 0
                last = distance
                guard centre == nil || distance <= radius else { continue }
                let body = Array((rows.text(row, 4) ?? "").utf8)
                let (counts, length) = body.withUnsafeBytes { LocalIndex.prefixCounts(of: needles, in: $0) }
                guard !counts.contains(0) else { continue }
                // The row's length counts its cell token too, as SQLite's FTS5 does.
                let relevance = LocalIndex.bm25(
                    counts: counts, weights: weights, lengthRatio: Double(length + 1) / max(tokensPerRow, 1e-9))
                best.offer(
                    BestHits.Hit(
                        rowid: Int64(row), relevance: relevance, distance: distance,
                        rank: LocalIndex.rank(relevance, distance, radius)))
            }
            return Ranked(rows: rows, best: best, lastDistance: last)
        }
    }

    /// Ranked rows: the best as `BestHits` over the rows' numbers.
    struct Ranked {
        let rows: PostgresRows
        let best: BestHits
        let lastDistance: Double
    }

    /// The hits when the words are common enough for distance to decide: the nearest matches, read in
    /// distance order, when no match farther than those read could outrank the `limit`-th. Nil when
    /// relevance may outweigh distance, or a batch did not settle it (the caller reads the circle).
    private func nearestFirst(
        _ words: [String], _ centre: Coordinate, _ scoring: Scoring, _ connection: PostgresConnection
    ) throws -> Ranked? {
        // The best rank a match at the circle's edge may have is `ceiling − 1`: below 0, the best of the
        // nearest usually settle it.
        guard scoring.ceiling < 1 else { return nil }
        let batch = scoring.limit * 3 + 100
        let rows = try connection.execute(
            """
            SELECT kind, id, latitude, longitude, body FROM index_records
            WHERE words @@ to_tsquery('simple', $1) AND location IS NOT NULL
            ORDER BY location <-> ST_SetSRID(ST_MakePoint($2, $3), 4326)::geography LIMIT $4
            """,
            [
                .text(Self.prefixQuery(words)), .double(centre.longitude), .double(centre.latitude),
                .integer(batch),
            ])
        let ranked = try scoring.ranked(rows)
        // Every match read (or every one in the circle), or none farther can beat the `limit`-th.
        // (PostGIS's sphere and ours differ in the last digits: a farther match is taken a hair nearer.)
        let farther = ranked.lastDistance * (1 - 1e-9)
        guard
            rows.count < batch || farther > scoring.radius
                || ranked.best.threshold.map({ LocalIndex.rank(scoring.ceiling, farther, scoring.radius) < $0 }) == true
        else { return nil }
        return ranked
    }

    /// The matches in the cells of `cellDegrees` the circle touches, found by its rarest word in
    /// `cell_words` (the other words checked on the rows it finds); nil when the circle spans more than
    /// `maximumCells` cells, or the word is longer than the 200 letters the cells' words are cut to.
    private func cellRows(
        _ words: [String], _ counts: [Int], _ centre: Coordinate, _ scoring: Scoring,
        _ connection: PostgresConnection
    ) throws -> PostgresRows? {
        let rarest = words[counts.indices.min { counts[$0] < counts[$1] } ?? 0]
        guard rarest.unicodeScalars.count <= 200,
            let cells = SearchBox(centre: centre, radiusKilometres: scoring.radius)
                .cellTokens(degrees: Self.cellDegrees, limit: Self.maximumCells)
        else { return nil }
        var values: [PostgresValue] = [
            .text(cells.map { Self.quoted($0 + "_" + rarest) + ":*" }.joined(separator: " | "))
        ]
        var sql = "SELECT kind, id, latitude, longitude, body FROM index_records WHERE cell_words @@ $1::tsquery"
        if words.count > 1 {
            values.append(.text(Self.prefixQuery(words)))
            sql += " AND words @@ to_tsquery('simple', $2)"
        }
        // The planner takes each cell's word beginning for a common word and would read the whole table
        // (18 s at ten million records) rather than the GIN index (10 ms).
        return try connection.transaction {
            try connection.execute("SET LOCAL enable_seqscan = off")
            return try connection.execute(sql, values)
        }
    }

    /// The matches the word index finds: within the circle (`ST_DWithin`), among `photoIDs`, or anywhere;
    /// cut to the database's ranking's best when there are more than `maximumCandidates`.
    private func wordIndexRows(
        _ words: [String], _ centre: Coordinate?, _ photoIDs: [String]?, _ scoring: Scoring,
        _ connection: PostgresConnection
    ) throws -> PostgresRows {
        var conditions = ["words @@ to_tsquery('simple', $1)", "location IS NOT NULL"]
        var values: [PostgresValue] = [.text(Self.prefixQuery(words))]
        if let photoIDs {
            values.append(.text(try JSONOutput.text(photoIDs)))
            conditions.append("kind = 'photo' AND id IN (SELECT jsonb_array_elements_text($\(values.count)::jsonb))")
        }
        if let centre {
            // A little wider than the circle: PostGIS's sphere and ours differ in the last digits; the
            // distance measured here decides.
            values += [.double(centre.longitude), .double(centre.latitude), .double(scoring.radius * 1_000.5 + 1)]
            let count = values.count
            conditions.append(
                "ST_DWithin(location, ST_SetSRID(ST_MakePoint($\(count - 2), $\(count - 1)), 4326)::geography, $\(count), false)"
            )
        }
        // The candidates' keys, points and words only: the few shown are read whole afterwards.
        let select =
            "SELECT kind, id, latitude, longitude, body FROM index_records WHERE "
            + conditions.joined(separator: " AND ")
        let cut = "$\(values.count + 1)"
        let rows = try connection.execute(select + " LIMIT \(cut)", values + [.integer(Self.maximumCandidates + 1)])
        guard rows.count > Self.maximumCandidates else { return rows }
        // Too many to rank one by one: the database's ranking cuts them first, as SQLite's bm25 does.
        return try connection.execute(
            select + " ORDER BY ts_rank(words, to_tsquery('simple', $1)) DESC LIMIT \(cut)",
            values + [.integer(scoring.limit * 3 + 50)])
    }

    /// The best hits of `ranked`, each read whole.
    private func shown(_ ranked: Ranked, _ connection: PostgresConnection) throws -> [SearchHit] {
        let best = ranked.best.ranked(), rows = ranked.rows
        guard !best.isEmpty else { return [] }
        func key(_ hit: BestHits.Hit) -> (kind: String, id: String) {
            (rows.text(Int(hit.rowid), 0) ?? "", rows.text(Int(hit.rowid), 1) ?? "")
        }
        let keys = best.map { ["kind": key($0).kind, "id": key($0).id] }
        let whole = try connection.execute(
            """
            SELECT kind, id, title, subtitle, latitude, longitude, thumbnail, image, owner, taken, count, page,
                license_id, license_name, license_url
            FROM index_records JOIN jsonb_to_recordset($1::jsonb) AS shown(kind text, id text) USING (kind, id)
            """, [.text(try JSONOutput.text(keys))])
        var annotations: [String: Annotation] = [:]
        for row in 0..<whole.count {
            if let annotation = try Self.annotation(whole, row) {
                annotations[annotation.kind.rawValue + "\u{1F}" + annotation.id] = annotation
            }
        }
        return best.compactMap { hit in
            annotations[key(hit).kind + "\u{1F}" + key(hit).id].map {
                SearchHit(annotation: $0, relevance: hit.relevance, distanceKilometres: hit.distance)
            }
        }
    }

    /// The tsquery matching every word as a word beginning; each word quoted, so nothing typed is syntax.
    static func prefixQuery(_ words: [String]) -> String {
        words.map { quoted($0) + ":*" }.joined(separator: " & ")
    }

    /// A lexeme quoted for a tsquery.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// A search whose circle holds fewer records than its words match ("bridge" in 5 km of a city): the
/// circle's rows are read from `records_cells`, where each record's text and coordinate sit in its grid
/// cell (a few ranges of consecutive rows, not a page per record), and their text is matched here, so
/// FTS5 never walks the word's list of hundreds of thousands of rows (for the match, or for bm25's count).
///
/// Relevance is FTS5's bm25, as the word-driven search ranks: k1 1.2, b 0.75, each word's weight
/// log((N − n + 0.5) / (n + 0.5)) (10⁻⁶ when not positive) over its n rows, the row's length in tokens
/// over the average. A word's n is counted once and kept in `meta` until the index changes.
extension LocalIndex {
    /// Above this many records in the circle, reading them all costs more than FTS5's lists.
    static let maximumCircleRows: Int64 = 50_000
    /// What reading one of the circle's rows and matching its text costs, in entries of the words' lists
    /// that FTS5 merges and counts. On bench/search.sh's million photos (thread CPU time, medians of 3
    /// rounds) 0, 0.5 and 2 gave the same median and p95 (5.0 and 6.9 ms), 8 a p95 of 10.6 ms: FTS5 also
    /// reads the lists of the circle's cells and counts each whole for bm25, so its entries cost more
    /// than they seem. 2 keeps FTS5 for words rarer than that, where it reads least.
    static let circleRowCost: Double = 2

    /// The hits when the circle is the rarer side; nil when the words' lists together cost less to walk
    /// than the circle's rows (FTS5's lists then drive), or the circle is too wide for its rows to be read.
    func searchCircle(
        _ words: [String], box: SearchBox, centre: Coordinate,
        radiusKilometres: Double, limit: Int
    ) throws -> [SearchHit]? {
        guard !words.isEmpty, let cells = box.circleCellRanges, let averages = try tokenAverages() else { return nil }
        // The R*Tree keeps 32-bit floats rounded outwards: its box is widened a little, the distance decides.
        let slack = 1e-4
        let longitudes = box.longitudes.map { _ in "(w.min_lon >= ? AND w.max_lon <= ?)" }.joined(separator: " OR ")
        let boxValues: [SQLiteValue] =
            [
                .real(box.latitudes.lowerBound - slack),
                .real(box.latitudes.upperBound + slack),
            ]
            + box.longitudes.flatMap { [SQLiteValue.real($0.lowerBound - slack), .real($0.upperBound + slack)] }
        let inCircle = try database.prepare(
            "SELECT count(*) FROM records_where w WHERE w.min_lat >= ? AND w.max_lat <= ? AND (\(longitudes))",
            boxValues)
        try inCircle.step()
        let circleRows = inCircle.integer(0) ?? 0
        guard circleRows <= Self.maximumCircleRows else { return nil }
        // FTS5 reads every word's whole list (to match, then for bm25's counts): the lists together are its
        // cost, against `circleRowCost` entries for each of the circle's rows. A word counted before is known;
        // another's list is read only as far as it takes to tell.
        let bound = Int64(Double(circleRows) * Self.circleRowCost)
        var listRows: Int64 = 0
        for word in words where listRows <= bound {
            if let known = try countedRows(word) {
                listRows += known
                continue
            }
            let probe = try database.prepare(
                "SELECT count(*) FROM (SELECT 1 FROM records_text WHERE records_text MATCH ? LIMIT ?)",
                [
                    .text("body : \"\(word.replacingOccurrences(of: "\"", with: "\"\""))\""),
                    .integer(bound - listRows + 1),
                ])
            try probe.step()
            listRows += probe.integer(0) ?? 0
        }
        if listRows <= bound { return nil }
        let weights = try words.map { word in
            Self.bm25Weight(rows: averages.rows, matching: Double(try rowsMatching(word)))
        }
        let needles = words.map { Array($0.utf8) }

        // One range scan per row of cells, the ranges disjoint: UNION ALL, for an OR of ranges makes SQLite
        // note each row's key in a temporary index to skip duplicates, which cost more than reading the row.
        let candidates = try database.prepare(
            cells.map { _ in "SELECT record, latitude, longitude, body FROM records_cells WHERE cell BETWEEN ? AND ?" }
                .joined(separator: " UNION ALL "),
            cells.flatMap { [SQLiteValue.integer($0.lowerBound), .integer($0.upperBound)] })
        var best = BestHits(limit: limit)
        while try candidates.step() {
            guard let rowid = candidates.integer(0), let latitude = candidates.real(1),
                let longitude = candidates.real(2),
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            else { continue }
            let distance = centre.distance(to: coordinate)
            guard distance <= radiusKilometres else { continue }
            let (counts, length) = candidates.withBytes(3) { Self.prefixCounts(of: needles, in: $0) }
            guard !counts.contains(0) else { continue }
            // The row's length counts its cell token too, as FTS5's does.
            let relevance = Self.bm25(
                counts: counts, weights: weights,
                lengthRatio: Double(length + 1) / averages.tokensPerRow)
            best.offer(
                BestHits.Hit(
                    rowid: rowid, relevance: relevance, distance: distance,
                    rank: Self.rank(relevance, distance, radiusKilometres)))
        }
        // Only the hits shown are read whole.
        let row = try database.prepare("SELECT \(Self.hitColumns(relevance: "0.0")) FROM records r WHERE r.rowid = ?")
        return try best.ranked().compactMap { hit in
            try row.bind([.integer(hit.rowid)])
            guard try row.step(), let annotation = Self.annotation(from: row) else { return nil }
            return SearchHit(annotation: annotation, relevance: hit.relevance, distanceKilometres: hit.distance)
        }
    }

    /// A word's bm25 weight, log((N − n + 0.5) / (n + 0.5)) over the `rows` N of which `matching` n
    /// hold it, as FTS5 takes it (10⁻⁶ when not positive).
    static func bm25Weight(rows: Double, matching: Double) -> Double {
        let weight = log((rows - matching + 0.5) / (matching + 0.5))
        return weight > 0 ? weight : 1e-6
    }

    /// FTS5's bm25 (k1 1.2, b 0.75) of a row holding each word `counts[i]` times, its length over
    /// the average `lengthRatio`: what every engine of the index ranks by.
    static func bm25(counts: [Int], weights: [Double], lengthRatio: Double) -> Double {
        var relevance = 0.0
        for (weight, count) in zip(weights, counts) {
            let frequency = Double(count)
            relevance += weight * (frequency * 2.2) / (frequency + 1.2 * (0.25 + 0.75 * lengthRatio))
        }
        return relevance
    }

    /// How many rows hold a word starting with `word` in their text, as FTS5 counts for bm25; counted once
    /// and kept until the index changes (`forgetWordCounts`).
    private func rowsMatching(_ word: String) throws -> Int64 {
        if let rows = try countedRows(word) { return rows }
        let count = try database.prepare(
            "SELECT count(*) FROM records_text WHERE records_text MATCH ?",
            [.text("body : \(Self.prefixPhrase(word))")])
        try count.step()
        let rows = count.integer(0) ?? 0
        // A search that cannot write (another process writing) counts again next time.
        try? setMarker("words " + word, String(rows))
        return rows
    }

    /// `rowsMatching(word)` when it was counted since the index last changed, else nil.
    private func countedRows(_ word: String) throws -> Int64? {
        try marker("words " + word).flatMap { Int64($0) }
    }

    /// Forgets the counted words: called by every change to the records.
    func forgetWordCounts() throws {
        try database.execute("DELETE FROM meta WHERE key >= 'words ' AND key < 'words!'")
    }

    /// FTS5's totals (its "averages" record, row 1 of `records_text_data`: varints of the row count, then
    /// each column's tokens): the rows, and tokens per row over both columns. Nil for an empty index.
    private func tokenAverages() throws -> (rows: Double, tokensPerRow: Double)? {
        let statement = try database.prepare("SELECT block FROM records_text_data WHERE id = 1")
        guard try statement.step() else { return nil }
        let values = statement.withBytes(0) { bytes -> [UInt64] in
            var values: [UInt64] = [], offset = 0
            while offset < bytes.count, let (value, next) = Self.varint(bytes, at: offset) {
                values.append(value)
                offset = next
            }
            return values
        }
        guard values.count >= 2, values[0] > 0 else { return nil }
        return (Double(values[0]), Double(values.dropFirst().reduce(0, +)) / Double(values[0]))
    }

    /// SQLite's variable-length integer at `offset` (big-endian 7-bit groups, a ninth byte whole) and
    /// the offset after it.
    private static func varint(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset + index < bytes.count else { return nil }
            let byte = bytes[offset + index]
            if index == 8 { return (value << 8 | UInt64(byte), offset + 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, offset + index + 1) }
        }
        return nil
    }

    /// For each needle, how many of the text's tokens start with it, and how many tokens the text has,
    /// tokenised as FTS5's unicode61 does: ASCII letters and digits, lowercased, make tokens; other text
    /// is folded as the query was. Needles are the query's folded words.
    static func prefixCounts(of needles: [[UInt8]], in text: UnsafeRawBufferPointer) -> ([Int], Int) {
        var counts = [Int](repeating: 0, count: needles.count)
        var length = 0
        func count(_ token: some Collection<UInt8>) {
            length += 1
            for (index, needle) in needles.enumerated() where token.starts(with: needle) { counts[index] += 1 }
        }
        guard text.allSatisfy({ $0 < 0x80 }) else {
            let folded = String(decoding: text, as: UTF8.self)
                .replacingOccurrences(of: "'", with: " ").replacingOccurrences(of: "’", with: " ")
            for word in SearchText.words(folded) { count(word.utf8) }
            return (counts, length)
        }
        var token: [UInt8] = []
        token.reserveCapacity(32)
        for byte in text {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): token.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): token.append(byte + 0x20)
            default:
                if !token.isEmpty { count(token) }
                token.removeAll(keepingCapacity: true)
            }
        }
        if !token.isEmpty { count(token) }
        return (counts, length)
    }
}

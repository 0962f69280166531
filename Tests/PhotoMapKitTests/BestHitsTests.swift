// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapKit

@Suite("A search's best hits kept as the matches are read")
struct BestHitsTests {
    @Test(
        "the best `limit` of any sequence, best first, as sorting them all and keeping the first would give",
        arguments: [0, 1, 7, 100, 1_000])
    func sameAsSortingAll(limit: Int) {
        var generator = SystemRandomNumberGenerator()
        // Ranks from a small set, so that ties are many: equal ranks go to the earlier row.
        let hits = (0..<500).map { row in
            BestHits.Hit(
                rowid: Int64(row), relevance: 0, distance: 0,
                rank: Double(Int.random(in: 0..<40, using: &generator)))
        }
        var best = BestHits(limit: limit)
        for hit in hits { best.offer(hit) }
        let expected = hits.sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.rowid < $1.rowid }.prefix(limit)
        #expect(best.ranked().map(\.rowid) == expected.map(\.rowid))
    }
}

// SPDX-License-Identifier: Apache-2.0
/// The best `limit` hits of a search that reads every match: a min-heap on rank, so each further match
/// costs a comparison with the worst kept (and log(limit) when it is better), not a place in a sort of all.
struct BestHits {
    /// A match and its rank (higher is better).
    struct Hit {
        var rowid: Int64
        var relevance: Double
        var distance: Double
        var rank: Double
    }

    let limit: Int
    /// The kept hits, the worst at the root.
    private var heap: [Hit] = []

    /// Keeps at most `limit` hits.
    init(limit: Int) {
        self.limit = max(limit, 0)
        heap.reserveCapacity(self.limit)
    }

    /// Whether `a` ranks below `b`; equal ranks go to the earlier row, so the same matches keep the same hits.
    private static func worse(_ a: Hit, _ b: Hit) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.rowid > b.rowid
    }

    /// Keeps `hit` when it is among the best so far.
    mutating func offer(_ hit: Hit) {
        if heap.count < limit {
            heap.append(hit)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.worse(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        } else if let worst = heap.first, Self.worse(worst, hit) {
            heap[0] = hit
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Self.worse(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, Self.worse(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    /// The rank a further hit must beat to be kept; nil until `limit` hits are kept.
    var threshold: Double? {
        heap.count == limit ? heap.first?.rank : nil
    }

    /// The kept hits, best first.
    func ranked() -> [Hit] {
        heap.sorted { Self.worse($1, $0) }
    }
}

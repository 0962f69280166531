// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

// Fills a local index with N generated photos around the catalog's cities, then times local searches
// (FTS5 + R*Tree) against a baseline over the same rows without either (LIKE over a bounding box); with
// --database URL, the same photos and searches in PostgreSQL with PostGIS (no baseline).
// Usage: photomap-bench-index [--count N] [--queries Q] [--rounds R] [--index FILE [--reuse]] [--database URL]
// With --reuse, an index FILE already holding N photos is searched as it is, and kept. The queries run R
// times (3 by default); each figure is the median of the rounds' figures, in wall time and in the
// thread's CPU time (which other work on a shared machine inflates less).

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? fallback
}
let count = option("--count", 1_000_000)
let queryCount = option("--queries", 200)
let rounds = max(option("--rounds", 3), 1)
let file =
    arguments.firstIndex(of: "--index").map { URL(fileURLWithPath: arguments[$0 + 1]) }
    ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("photomap-bench-\(ProcessInfo.processInfo.processIdentifier).sqlite")

/// A repeatable pseudo-random sequence (xorshift64*), so every run indexes the same photos.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(state: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        self.state = state
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// An index skewed toward small values (Zipf-like), as word frequencies are.
    mutating func skewed(_ count: Int) -> Int { min(Int(Double(count) * pow(unit(), 3)), count - 1) }
}

let cities: [(Double, Double)] = [
    (40.71, -74.01), (48.85, 2.35), (51.51, -0.13), (37.77, -122.42), (35.68, 139.69),
    (-33.87, 151.21), (52.52, 13.40), (41.90, 12.50), (-22.91, -43.17), (19.43, -99.13),
    (55.75, 37.62), (1.29, 103.85), (-34.60, -58.38), (30.04, 31.24), (28.61, 77.21),
]
let common = [
    "bridge", "sunset", "street", "night", "coffee", "park", "river", "tower", "market", "church", "museum",
    "theatre", "harbour", "station", "garden", "square", "beach", "castle", "skyline", "rain",
]
// Made-up words of two to four syllables, so prefixes spread as in a real language (an enumeration such
// as w1, w10, w11… would make every prefix query expand to hundreds of terms).
let syllables = [
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "do", "fa", "gu", "he", "ji", "pe", "qua", "ri",
    "so", "tu", "ze",
]
var wordGenerator = Generator(state: 0x5DEE_CE66_D1CE_4E5B)
let vocabulary =
    common
    + (0..<3_000).map { _ in
        (0..<(2 + Int(wordGenerator.next() % 3)))
            .map { _ in syllables[Int(wordGenerator.next() % UInt64(syllables.count))] }.joined()
    }

func elapsed(_ start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}

/// The CPU time this thread has used, in milliseconds.
func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

let reuse = arguments.contains("--reuse")
let database = arguments.firstIndex(of: "--database").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }

do {
    if !reuse { try? FileManager.default.removeItem(at: file) }
    let index: any SearchIndex =
        try database.map {
            let pool = try PostgresPool(address: DatabaseAddress($0))
            try DatabaseSchema.migrate(pool)
            return try StateStores.database(pool, answerTimeToLive: 0).index.open()
        } ?? LocalIndex(file: file)
    let engine = database == nil ? "SQLite" : "PostGIS"
    var generator = Generator()
    let fillStart = DispatchTime.now()
    let filled = reuse ? try index.count() : 0
    /// Photo `number`, drawn from the generator in order: every run indexes, and then queries, the same.
    func photo(_ number: Int) -> IndexRecord {
        let city = cities[number % cities.count]
        let coordinate = Coordinate(
            latitude: city.0 + (generator.unit() - 0.5) * 0.4,
            longitude: city.1 + (generator.unit() - 0.5) * 0.4)
        let words = (0..<10).map { _ in vocabulary[generator.skewed(vocabulary.count)] }
        let title = words.prefix(3).joined(separator: " ")
        return IndexRecord(
            annotation: Annotation(
                kind: .photo, id: String(number), title: title, subtitle: "",
                coordinate: coordinate),
            text: words.joined(separator: " "))
    }
    if let postgres = index as? PostgresIndex, filled != count {
        // One COPY of them all (made as they are sent), as a site's first load would be.
        try postgres.load((0..<count).lazy.map(photo), origin: "fetched")
    } else {
        var batch: [IndexRecord] = []
        for number in 0..<count {
            batch.append(photo(number))
            if batch.count == 20_000 || number == count - 1 {
                // A reused index holds them already; the generator still runs, so the queries are the same.
                if filled != count { try index.add(batch) }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
    let fillSeconds = elapsed(fillStart) / 1000
    let size =
        database == nil
        ? (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0) / 1_048_576 : 0

    // Queries: a word (common or rare) around a city, radius 5 km as `search` defaults to.
    var queries: [(String, Coordinate)] = []
    for number in 0..<queryCount {
        let city = cities[number % cities.count]
        let word =
            number % 2 == 0
            ? common[generator.skewed(common.count)]
            : vocabulary[common.count + generator.skewed(200)]
        if let centre = Coordinate(
            latitude: city.0 + (generator.unit() - 0.5) * 0.2,
            longitude: city.1 + (generator.unit() - 0.5) * 0.2)
        {
            queries.append((word, centre))
        }
    }
    func percentile(_ values: [Double], _ p: Double) -> Double {
        values.isEmpty ? 0 : values[min(Int(Double(values.count) * p), values.count - 1)]
    }
    func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }
    // Per round: median, p95 and max of wall time, then of CPU time.
    var figures: [[Double]] = [], found = 0
    var slowest: (Double, String) = (0, "")
    for round in 0..<rounds {
        var walls: [Double] = [], cpus: [Double] = []
        for (word, centre) in queries {
            let start = DispatchTime.now(), cpu = threadCPU()
            let hits = try index.search(word, near: centre, radiusKilometres: 5, limit: 100).count
            if round == 0 { found += hits }
            cpus.append(threadCPU() - cpu)
            walls.append(elapsed(start))
            if walls[walls.count - 1] > slowest.0 { slowest = (walls[walls.count - 1], word) }
        }
        walls.sort()
        cpus.sort()
        figures.append([
            percentile(walls, 0.5), percentile(walls, 0.95), walls.last ?? 0,
            percentile(cpus, 0.5), percentile(cpus, 0.95), cpus.last ?? 0,
        ])
    }
    let figure = (0..<6).map { column in median(figures.map { $0[column] }) }

    // The baseline: the same rows searched without FTS5 or the R*Tree, for a few of the queries.
    let baselineQueries = database == nil ? Array(queries.prefix(10)) : []
    var baseline: [Double] = []
    if !baselineQueries.isEmpty {
        let scan = try LikeScan(file: file)
        for (word, centre) in baselineQueries {
            let start = DispatchTime.now()
            _ = scan.count(word, near: centre, radiusKilometres: 5, limit: 100)
            baseline.append(elapsed(start))
        }
    }
    baseline.sort()

    print(
        "\(engine) local index: \(count) photos, filled in \(String(format: "%.1f", fillSeconds)) s"
            + (database == nil ? ", \(size) MB on disk" : ""))
    print(
        String(
            format:
                "search, %d queries, 5 km, median of %d rounds:  median %.2f ms   p95 %.2f ms   max %.2f ms   (%d hits in all)"
                + (database == nil
                    ? "      target: median <= 10 ms, p95 <= 30 ms"
                    : "      target at 10M: median <= 20 ms, p95 <= 50 ms"),
            queries.count, rounds, figure[0], figure[1], figure[2], found))
    print(
        String(
            format: "  the same in the thread's CPU time:  median %.2f ms   p95 %.2f ms   max %.2f ms", figure[3],
            figure[4], figure[5]))
    // A word's rows are counted the first time a search needs them (then kept in the index): round one pays that.
    print(
        String(
            format: "  round 1 alone:  median %.2f ms   p95 %.2f ms   max %.2f ms", figures[0][0], figures[0][1],
            figures[0][2]))
    if !baseline.isEmpty {
        print(
            String(
                format: "baseline (LIKE over a bounding box), %d queries:  median %.2f ms   (%.0fx slower)",
                baseline.count, percentile(baseline, 0.5), percentile(baseline, 0.5) / max(figure[0], 0.001)))
    }
    print(String(format: "slowest query: \"%@\" %.1f ms", slowest.1, slowest.0))
    if !reuse && database == nil { LocalIndex.delete(file) }
} catch {
    FileHandle.standardError.write(Data("photomap-bench-index: error: \(error)\n".utf8))
    exit(1)
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

// bench/world-map.sh: COUNT generated photos imported into a catalog (SQLite, or PostgreSQL with
// --database URL) as `import --records` writes them, each batch keeping the map's aggregates (a tenth of
// the batches for friends, a tenth private, the rest public; --closed-batches 0 for all public); then, for
// each zoom 0–16, 200 tiles that hold photos read from the aggregates (cold: the first pass after loading;
// warm: the same tiles again; over a two-year range; and as the owner signed in sees them, every photo)
// beside the naive way for the owner (the tile's photos read whole and clustered in Swift), in the same
// run: p50 and p95 in milliseconds; last, the map made again over the photos. Prints figures; not a test.

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// Writes a line at once (print's are buffered in a pipe): a long run that fails keeps what it measured.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Runs a program to its end; throws unless it exits 0.
func run(_ program: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
}

let count = Int(argument("--count") ?? "") ?? 100_000
let tilesPerZoom = Int(argument("--tiles") ?? "") ?? 200
let naiveBudget = Double(argument("--naive-seconds") ?? "") ?? 3
/// With --drop-caches (root only), the kernel's page cache is emptied before each zoom's first pass, so that
/// pass reads from disk as it does when the tables are larger than memory (10M) at any size (world-map.sh
/// with COLD=1 gives the server small buffers of its own too).
let dropsCaches = CommandLine.arguments.contains("--drop-caches")
/// Of every ten batches, how many are not public (1: one private; 2: one for friends too).
let closedBatches = min(2, max(0, Int(argument("--closed-batches") ?? "") ?? 2))

var state: UInt64 = 0x2545_F491_4F6C_DD1D
@MainActor func unit() -> Double {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
}

// 300 towns holding 70% of the photos (about a kilometre around each), the rest scattered.
let towns = (0..<300).map { _ in ((unit() - 0.5) * 120 + 10, (unit() - 0.5) * 340) }
@MainActor func coordinate() -> Coordinate? {
    if unit() < 0.7 {
        let town = towns[Int(unit() * Double(towns.count)) % towns.count]
        return Coordinate(latitude: town.0 + (unit() - 0.5) * 0.02, longitude: town.1 + (unit() - 0.5) * 0.03)
    }
    return Coordinate(latitude: (unit() - 0.5) * 150, longitude: (unit() - 0.5) * 358)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-world-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let database = argument("--database")
let pool = try database.map { try PostgresPool(address: DatabaseAddress($0), size: 2) }
if let pool { try DatabaseSchema.migrate(pool) }
/// A catalog of its own (SQLite's is a class: a viewer set on one is not set on another).
func openStore() throws -> any LocalCatalogStore {
    if let pool { return PostgresLocalCatalog(pool: pool) }
    return try LocalCatalog(file: LocalCatalog.file(in: folder))
}
let store = try openStore()

var located: [Coordinate] = []
let loadStart = Date()
var millionStart = loadStart
// As `import --records` writes them: 10,000 records a transaction, the map's cells kept by each batch.
let batch = 10_000
for first in stride(from: 0, to: count, by: batch) {
    var records: [RecordPhoto] = []
    for number in first..<min(count, first + batch) {
        let at = coordinate()
        if let at { located.append(at) }
        let taken =
            unit() < 0.05
            ? nil : String(format: "%04d-%02d-14 12:00:00", 2000 + Int(unit() * 25) % 25, 1 + Int(unit() * 12) % 12)
        let record = PhotoRecord(
            sourceID: String(number), title: "Photo \(number)", taken: taken, coordinate: at,
            image: .url("http://127.0.0.1:9/\(number).jpg"))
        records.append(RecordPhoto(record, place: .unlocated))
    }
    let audience: Audience = [0: .friends, 1: .private][(first / batch) % 10 + 2 - closedBatches, default: .public]
    _ = try store.keepRecords(records, privacy: PhotoPrivacy(visibility: audience))
    // Each million's rate: how the cost of a batch grows with the catalog.
    if (first + batch) % 1_000_000 == 0 {
        let now = Date()
        say(
            String(
                format: "  %d photos in %.0f s; the last million at %.0f photos/s", first + batch,
                now.timeIntervalSince(loadStart), 1_000_000 / now.timeIntervalSince(millionStart)))
        millionStart = now
    }
}
let loadSeconds = Date().timeIntervalSince(loadStart)
say(
    String(
        format: "loaded %d photos with the aggregates in %.1f s (%.0f photos/s)", count, loadSeconds,
        Double(count) / loadSeconds))

// What autovacuum would do within minutes of a load, done at once and timed, so that every run's tiles
// meet the same state (3.4 s at 1M).
if let url = database {
    let vacuumed = Date()
    try run("psql", ["-qAt", url, "-c", "VACUUM ANALYZE"])
    say(
        String(format: "VACUUM ANALYZE after the load, as autovacuum would: %.1f s", Date().timeIntervalSince(vacuumed))
    )
}

// One more photo, imported alone: what keeping the aggregates costs a single import. Eleven of them, one at
// a time (a single one right after a load meets the server's own work on it: the median says more).
var singles: [Double] = []
for number in 0..<11 {
    var single = LocalCatalogChanges()
    let extra = Photo(
        id: String(format: "local-ffffffffffff%04x", number), dateTaken: "2024-01-01 10:00:00",
        coordinate: Coordinate(latitude: 46, longitude: 14 + Double(number) / 100))
    single.photos = [(extra, .unlocated, nil)]
    var extraFile = LocalFileState(size: 1, modified: 1, inode: Int64(-1 - number))
    extraFile.photo = extra.id
    single.files = [(Array("/photos/extra-\(number).jpg".utf8), extraFile)]
    let oneStart = Date()
    _ = try store.apply(single)
    singles.append(Date().timeIntervalSince(oneStart) * 1000)
}
singles.sort()
say(
    String(
        format: "one more photo imported (with the catalog's other work), 11 one at a time: median %.1f ms, "
            + "least %.1f, most %.1f", singles[5], singles[0], singles[10]))

func percentiles(_ times: [Double]) -> String {
    guard !times.isEmpty else { return "      -       -" }
    let sorted = times.sorted()
    let p50 = sorted[sorted.count / 2], p95 = sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
    return String(format: "%7.2f %7.2f", p50 * 1000, p95 * 1000)
}

func timed(
    _ tiles: [MapTile], months: MonthRange, budget: Double = .infinity,
    _ read: (MapTile, MonthRange) throws -> [MapCluster]
) throws -> [Double] {
    var times: [Double] = []
    let start = Date()
    for tile in tiles {
        let began = Date()
        _ = try read(tile, months)
        times.append(Date().timeIntervalSince(began))
        if Date().timeIntervalSince(start) > budget { break }
    }
    return times
}

let range = MonthRange(from: 2010 * 12, to: 2011 * 12 + 11) ?? MonthRange.all
var owner = try openStore()
(owner.audiences, owner.showsFenced) = (Audience.seen(by: .owner), true)
say(
    "zoom  cold p50     p95 | warm p50     p95 | range p50    p95 | owner p50    p95 | owner naive p50 p95 (tiles) "
        + "| clusters/tile")
for zoom in 0...16 {
    // Tiles where photos are, as a viewer pans: each from a random photo's place.
    var tiles: [MapTile] = []
    for _ in 0..<tilesPerZoom {
        let at = located[Int(unit() * Double(located.count)) % located.count]
        let scale = Double(1 << zoom)
        let x = Int((at.longitude + 180) / 360 * scale)
        let radians = at.latitude * .pi / 180
        let y = Int((1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * scale)
        if let tile = MapTile(zoom: zoom, x: min(x, (1 << zoom) - 1), y: min(max(y, 0), (1 << zoom) - 1)) {
            tiles.append(tile)
        }
    }
    if dropsCaches { try run("sh", ["-c", "sync && echo 3 > /proc/sys/vm/drop_caches"]) }
    let cold = try timed(tiles, months: .all) { try store.mapClusters(in: $0, months: $1) }
    let warm = try timed(tiles, months: .all) { try store.mapClusters(in: $0, months: $1) }
    let ranged = try timed(tiles, months: range) { try store.mapClusters(in: $0, months: $1) }
    let owned = try timed(tiles, months: .all) { try owner.mapClusters(in: $0, months: $1) }
    // The naive way for the owner (every photo: how a signed-in viewer's tiles were made before the
    // aggregates kept every audience). Over a large tile it can outlast the server's statement timeout, as
    // it would for a page: such a tile is counted, its time the timeout's.
    var pastTimeout = 0
    let naive = try timed(tiles, months: .all, budget: naiveBudget) { tile, months in
        do { return try owner.naiveMapClusters(in: tile, months: months) } catch DatabaseError.timedOut(_, _) {
            pastTimeout += 1
            return []
        }
    }
    let clusters =
        try tiles.prefix(20).map { try store.mapClusters(in: $0, months: .all).count }.reduce(0, +)
        / min(20, tiles.count)
    say(
        String(format: "%4d ", zoom)
            + "\(percentiles(cold)) | \(percentiles(warm)) | \(percentiles(ranged)) | \(percentiles(owned)) "
            + "| \(percentiles(naive)) (\(naive.count)\(pastTimeout > 0 ? ", \(pastTimeout) timed out" : "")) | \(clusters)"
    )
}

// The timeline's months (`mapMonths`, summed from the top level's monthly cells for the viewer): the first
// call, then the median of 20.
for (name, viewer) in [("public", store), ("owner", owner)] {
    var times: [Double] = []
    for _ in 0..<21 {
        let began = Date()
        _ = try viewer.mapMonths()
        times.append(Date().timeIntervalSince(began) * 1000)
    }
    let first = times.removeFirst()
    say(
        "the timeline's months, \(name): "
            + String(format: "first %.2f ms, then median %.2f ms", first, times.sorted()[10]))
}

// The map made again over the photos there, as for a catalog from before the map kept every audience:
// SQLite's when the catalog is next opened to write, PostgreSQL's by its migration.
let remade = Date()
if let url = database {
    try run(
        "psql",
        ["-qAt", url, "-c", "DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.mapVersion)"])
    try DatabaseSchema.migrate(try PostgresPool(address: DatabaseAddress(url), size: 1))
} else {
    try run("sqlite3", [LocalCatalog.file(in: folder).path, "DROP TABLE map_cells; DROP TABLE map_points;"])
    _ = try LocalCatalog(file: LocalCatalog.file(in: folder))
}
say(String(format: "the map made again over the %d photos there: %.1f s", count + 11, Date().timeIntervalSince(remade)))

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Offline coasts: rings and lines cut to tiles, simplified, read from make_coasts.py's file")
struct CoastTilesTests {
    static func points(_ pairs: [(Int, Int)]) -> [GridPoint] { pairs.map { GridPoint($0.0, $0.1) } }

    /// Twice a closed ring's area (the shoelace formula), positive when it turns anticlockwise.
    static func doubleArea(_ ring: [GridPoint]) -> Int {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + Int($1.0.x) * Int($1.1.y) - Int($1.1.x) * Int($1.0.y) }
    }

    static let rect = GridRect(west: 0, south: 0, east: 100, north: 100)

    @Test("a ring cut to a rectangle keeps exactly the part inside, closed, every point within it")
    func ringClipping() {
        // A square half inside: the half that is inside.
        let square = Self.points([(50, 20), (150, 20), (150, 80), (50, 80), (50, 20)])
        let cut = RectangleClipping.ring(square, to: Self.rect)
        #expect(cut.first == cut.last && Self.doubleArea(cut) == 2 * 50 * 60)
        #expect(cut.allSatisfy { (0...100).contains($0.x) && (0...100).contains($0.y) })
        // A ring around the rectangle becomes the rectangle; one outside, nothing.
        let around = Self.points([(-10, -10), (200, -10), (200, 200), (-10, 200)])
        #expect(Self.doubleArea(RectangleClipping.ring(around, to: Self.rect)) == 2 * 100 * 100)
        #expect(RectangleClipping.ring(Self.points([(200, 200), (300, 200), (300, 300)]), to: Self.rect).isEmpty)
        // A U whose arms reach out of the top: the arms' stubs and the base, 20×100 + 20×100 + 60×20.
        let u = Self.points([(10, 10), (90, 10), (90, 150), (70, 150), (70, 30), (30, 30), (30, 150), (10, 150)])
        #expect(Self.doubleArea(RectangleClipping.ring(u, to: Self.rect)) == 2 * (20 * 90 + 20 * 90 + 40 * 20))
    }

    @Test("a line cut to a rectangle becomes the pieces inside, ending on its edges")
    func lineClipping() {
        // In from the west, out at the north, back in from the north, ending inside.
        let line = Self.points([(-50, 50), (50, 50), (50, 150), (80, 150), (80, 60)])
        let pieces = RectangleClipping.line(line, to: Self.rect)
        #expect(pieces == [Self.points([(0, 50), (50, 50), (50, 100)]), Self.points([(80, 100), (80, 60)])])
        #expect(RectangleClipping.line(Self.points([(200, 0), (300, 300)]), to: Self.rect).isEmpty)
    }

    @Test("simplifying drops the points within the tolerance and keeps the ends and every point past it")
    func simplification() {
        let wobbly = Self.points([(0, 0), (10, 1), (20, -1), (30, 0), (40, 30), (50, 0), (60, 1), (70, 0)])
        #expect(
            LineSimplification.simplified(wobbly, tolerance: 2)
                == Self.points([(0, 0), (30, 0), (40, 30), (50, 0), (70, 0)]))
        // A ring, from its first point back to it: a square keeps its corners.
        let square = Self.points([(0, 0), (5, 0), (10, 0), (10, 10), (0, 10), (0, 5), (0, 0)])
        #expect(
            LineSimplification.simplified(square, tolerance: 1)
                == Self.points([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]))
        #expect(LineSimplification.simplified(Self.points([(0, 0), (9, 9)]), tolerance: 100).count == 2)
    }

    /// A coasts file as make_coasts.py writes it, of `features` (kind, points in grid units), in chunks of
    /// `chunk` steps.
    static func file(_ features: [(UInt8, [(Int, Int)])], chunk: Int = 256) -> Data {
        func u32(_ value: Int, _ data: inout Data) {
            withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) }
        }
        func rect(_ points: ArraySlice<(Int, Int)>, _ data: inout Data) {
            for edge in [
                points.map(\.0).min() ?? 0, points.map(\.1).min() ?? 0, points.map(\.0).max() ?? 0,
                points.map(\.1).max() ?? 0,
            ] { withUnsafeBytes(of: Int32(edge).littleEndian) { data.append(contentsOf: $0) } }
        }
        var table = Data(), bodies = Data()
        let start = 12 + features.count * 29
        for (kind, points) in features {
            let parts = stride(from: 0, to: points.count - 1, by: chunk).map {
                points[$0..<min(points.count, $0 + chunk + 1)]
            }
            var chunkTable = Data(), chunks = Data()
            for part in parts {
                var bytes = Data()
                for value in [part.first!.0, part.first!.1] {
                    withUnsafeBytes(of: Int32(value).littleEndian) { bytes.append(contentsOf: $0) }
                }
                for (a, b) in zip(part, part.dropFirst()) {
                    for step in [b.0 - a.0, b.1 - a.1] {
                        var value = UInt64(bitPattern: Int64((step << 1) ^ (step >> 63)))
                        while value >= 0x80 {
                            bytes.append(UInt8(value & 0x7F) | 0x80)
                            value >>= 7
                        }
                        bytes.append(UInt8(value))
                    }
                }
                rect(part, &chunkTable)
                u32(bytes.count, &chunkTable)
                chunks += bytes
            }
            let body = parts.count > 1 ? chunkTable + chunks : chunks
            table.append(kind)
            rect(points[...], &table)
            u32(parts.count, &table)
            u32(start + bodies.count, &table)
            u32(body.count, &table)
            bodies += body
        }
        var data = Data("PMCOAST2".utf8)
        u32(features.count, &data)
        return data + table + bodies
    }

    static func coastFile(_ features: [(UInt8, [(Int, Int)])], chunk: Int = 256) throws -> CoastFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coasts-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try file(features, chunk: chunk).write(to: url)
        return try #require(CoastFile(contentsOf: url))
    }

    /// The features of a tile's script, parsed back from its JSON.
    static func features(_ script: String?) throws -> [[Int]] {
        let text = try #require(script)
        let start = try #require(text.firstIndex(of: ",")), end = try #require(text.lastIndex(of: ")"))
        return try JSONDecoder().decode([[Int]].self, from: Data(text[text.index(after: start)..<end].utf8))
    }

    @Test("the file's features read back with their kinds, bounds and points; a cut-short file is refused")
    func file() throws {
        let island = [(100, -200), (70_000, -200), (70_000, 300), (-5, 300), (100, -200)]
        let coasts = try Self.coastFile([(1, island), (5, [(-1, -1), (1_000_000, 2)])])
        #expect(coasts.headers.map(\.kind) == [.land, .river])
        #expect(coasts.headers[0].bounds == GridRect(west: -5, south: -200, east: 70_000, north: 300))
        #expect(coasts.points(of: coasts.headers[0]) == Self.points(island))
        #expect(coasts.points(of: coasts.headers[1]) == Self.points([(-1, -1), (1_000_000, 2)]))
        #expect(coasts.headers.map(\.chunks) == [1, 1])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("short-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.file([(1, island)]).dropLast().write(to: url)
        #expect(CoastFile(contentsOf: url) == nil)
    }

    @Test("a long feature read in chunks: its points whole; a tile's cut reads only the chunks that meet it, same area")
    func chunks() throws {
        // A comb of 40 teeth 1,000 units wide and 100,000 tall on a base 1,000 tall: a ring of 161 points
        // whose every side runs east-west or north-south, so that cuts cross the tiles' edges at whole
        // numbers and the areas compare exactly.
        var comb = [(0, 0), (79_000, 0)]
        for tooth in (0..<40).reversed() {
            let west = tooth * 2_000
            comb += [(west + 1_000, 100_000), (west, 100_000)]
            if tooth > 0 { comb += [(west, 1_000), (west - 1_000, 1_000)] }
        }
        comb += [(0, 0)]
        let river = (0...300).map { ($0 * 1_000, ($0 % 2) * 50_000) }
        let whole = try Self.coastFile([(1, comb), (5, river)], chunk: 100_000)
        let chunked = try Self.coastFile([(1, comb), (5, river)], chunk: 7)
        #expect(chunked.headers.map(\.chunks) == [(comb.count - 1 + 6) / 7, 300 / 7 + 1])
        #expect(chunked.points(of: chunked.headers[0]) == Self.points(comb))
        #expect(chunked.points(of: chunked.headers[1]) == Self.points(river))
        for rect in [
            GridRect(west: 10_500, south: 500, east: 20_500, north: 60_000),
            GridRect(west: -5_000, south: 90_000, east: 3_000, north: 200_000),
            GridRect(west: 78_500, south: -10, east: 90_000, north: 10),
        ] {
            let ring = chunked.ring(of: chunked.headers[0], near: rect)
            #expect(ring.count < comb.count)
            let cut = RectangleClipping.ring(ring, to: rect)
            let reference = RectangleClipping.ring(whole.points(of: whole.headers[0]), to: rect)
            #expect(Self.doubleArea(cut) == Self.doubleArea(reference) && Self.doubleArea(cut) != 0)
            let pieces = chunked.runs(of: chunked.headers[1], meeting: rect).flatMap {
                RectangleClipping.line($0, to: rect)
            }
            #expect(pieces == RectangleClipping.line(Self.points(river), to: rect))
        }
    }

    @Test("a tile holds the features cut to it in its quanta; land all around fills it; a ring past 180° wraps")
    func tiles() throws {
        let level = CoastTiles.levels[2], degree = GridPoint.perDegree
        // An island of 0.01° × 0.01° at 0.1° E 0.1° N, a continent around 10° E 10° N, and land past the
        // 180th meridian, 179.9°–180.1° E at the equator.
        let island = [(10_000, 10_000), (11_000, 10_000), (11_000, 11_000), (10_000, 11_000), (10_000, 10_000)]
        let continent = [(900_000, 900_000), (1_100_000, 900_000), (1_100_000, 1_100_000), (900_000, 1_100_000)]
        let across = [(17_990_000, -10_000), (18_010_000, -10_000), (18_010_000, 10_000), (17_990_000, 10_000)]
        let tiles = CoastTiles(
            file: try Self.coastFile([(1, island), (1, continent + [continent[0]]), (1, across + [across[0]])]))
        func tile(_ longitude: Double, _ latitude: Double) -> (Int, Int) {
            let side = Double(level.tile) / Double(degree)
            return (Int(((longitude + 180) / side).rounded(.down)), Int(((latitude + 90) / side).rounded(.down)))
        }
        let (x, y) = tile(0.1, 0.1)
        let islandTile = try Self.features(tiles.script(level: 2, x: x, y: y))
        // Its numbers count quanta from the tile's corner (0°, 0°): the island's corners exactly.
        #expect(islandTile.count == 1 && islandTile[0][0] == 1)
        let q = level.quantum
        #expect(
            Array(islandTile[0].dropFirst()) == [
                10_000 / q, 10_000 / q, 1_000 / q, 0, 0, 1_000 / q, -1_000 / q, 0, 0, -1_000 / q,
            ])
        let inland = try Self.features(tiles.script(level: 2, x: tile(10, 10).0, y: tile(10, 10).1))
        #expect(inland.count == 1)
        // The tile and its overlap all round: (side + 2 overlap) across, as a closed ring of 4 corners.
        let across4 = (level.tile + 2 * level.overlap) / q
        #expect(inland[0].count == 1 + 2 * 5 && inland[0].dropFirst(3).map(abs).max() == across4)
        let west = try Self.features(tiles.script(level: 2, x: 0, y: tile(-179.95, 0).1))
        #expect(west.count == 1, "the land past 180° E is drawn at 180° W")
        #expect(tiles.script(level: 3, x: 0, y: 0) == nil && tiles.script(level: 2, x: 1440, y: 0) == nil)
        #expect(try Self.features(tiles.script(level: 2, x: tile(-30, -30).0, y: tile(-30, -30).1)).isEmpty)
    }

    @Test("a page's tiles are those of each level within its margin of each annotation, wrapping at 180°")
    func keys() throws {
        let paris = try #require(Coordinate(latitude: 48.8534, longitude: 2.3488))
        let keys = CoastTiles.tiles(around: [paris]).map { $0.map(\.key) }
        #expect(keys.count == CoastTiles.levels.count)
        // 4° tiles, 1° around (1.35°–3.35° E, 47.85°–49.85° N): the one of 0°–4° E, 46°–50° N.
        #expect(keys[0] == ["45/34"])
        // 1° tiles, 0.3° around (2.05°–2.65° E, 48.55°–49.15° N): 2°–3° E, 48°–49° N and 49°–50° N.
        #expect(keys[1] == ["182/138", "182/139"])
        let dateline = try #require(Coordinate(latitude: 0, longitude: 179.99))
        #expect(CoastTiles.tiles(around: [dateline])[2].contains { $0.x == 0 })
        #expect(CoastTiles.tiles(around: []) == [[], [], []])
    }

    @Test("an export writes the tiles around its photos beside the assets, once; its pages list them")
    func export() throws {
        let folder = try TemporaryFolder()
        let island = [(10_000, 10_000), (11_000, 10_000), (11_000, 11_000), (10_000, 11_000), (10_000, 10_000)]
        let tiles = CoastTiles(file: try Self.coastFile([(1, island)]))
        let photos = [(0.105, 0.105), (0.107, 0.104)].enumerated().map { index, at in
            Photo(id: "\(index)", title: "Photo", coordinate: Coordinate(latitude: at.0, longitude: at.1))
        }
        func run() throws -> SiteWriter {
            let writer = SiteWriter(root: folder.url.appendingPathComponent("site"), keepsManifest: true)
            let cache = ThumbnailCache(
                cacheDirectory: folder.url.appendingPathComponent("cache"),
                origin: FixtureImageOrigin(folder: folder.url))
            var builder = SiteBuilder(writer: writer, assets: try PageAssets.locate(), images: cache, prefix: "")
            builder.coasts = tiles
            try builder.writePhotosPage(
                at: "places/P.html", title: "P", subtitle: "", photos: AnnotationAdapter().annotated(photos),
                back: nil, defaultView: "map")
            try writer.commit()
            return writer
        }
        _ = try run()
        let site = folder.url.appendingPathComponent("site")
        let page = try String(contentsOf: site.appendingPathComponent("places/P.html"), encoding: .utf8)
        let around = CoastTiles.tiles(around: photos.compactMap(\.coordinate))
        #expect(around.allSatisfy { $0.count >= 1 })
        for (level, levelTiles) in around.enumerated() {
            #expect(page.contains(levelTiles.map { "\"\($0.key)\"" }.joined(separator: ",")))
            for tile in levelTiles {
                let file = site.appendingPathComponent("assets/coasts/" + tile.path(level: level))
                let script = try String(contentsOf: file, encoding: .utf8)
                #expect(script.hasPrefix("photomapCoast(\"\(level)/\(tile.key)\","))
            }
        }
        // The island's own tile at the deepest level holds it.
        let own = site.appendingPathComponent("assets/coasts/2/720/360.js")
        #expect(try Self.features(String(contentsOf: own, encoding: .utf8)).count == 1)
        #expect(try run().rendered == 0)
    }
}

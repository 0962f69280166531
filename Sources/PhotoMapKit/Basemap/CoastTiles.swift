// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The coasts a map draws past the world outline's zooms, as tiles of a fixed grid per level of detail:
/// GSHHG's rings and lines cut to each tile (a little wider, so that neighbouring tiles' fills overlap
/// rather than leave a hairline between them) and simplified for the level's zooms (`Level.tolerance`),
/// specks dropped. A written page lists the tiles around its annotations, which the site holds (`SiteBuilder`);
/// a served page may load any (`/assets/coasts/…`). Tiles are scripts
/// (`photomapCoast("level/x/y", [[kind, x, y, Δx, Δy, …], …])`) so that pages opened from disk load them.
public final class CoastTiles: Sendable {
    /// One level of detail.
    public struct Level: Sendable, Equatable {
        /// The zooms it is drawn at.
        public let zooms: ClosedRange<Int>
        /// A tile's side, in grid units (`GridPoint.perDegree`).
        public let tile: Int
        /// How far a point may move when simplified, in grid units.
        public let tolerance: Double
        /// The unit a tile's numbers count in, in grid units.
        public let quantum: Int
        /// How far past its edges a tile reaches, in grid units.
        public let overlap: Int
        /// How far around each annotation a written page's tiles reach, in grid units.
        public let margin: Int
    }

    /// The levels: a grid unit is 1e-5 degree; a pixel is 274 units at zoom 9, 34 at 12, 8.6 at 14.
    /// Tiles nest in the first level's, which are the cells `cell(x:y:)` keeps cut. Much of GSHHG's full
    /// resolution comes from SRTM's water bodies, steps of 3 arc-seconds (83 units): a tolerance past
    /// half a step draws them as the coast they follow rather than as stairs.
    public static let levels = [
        Level(zooms: 7...9, tile: 400_000, tolerance: 200, quantum: 50, overlap: 550, margin: 100_000),
        Level(zooms: 10...12, tile: 100_000, tolerance: 34, quantum: 10, overlap: 70, margin: 30_000),
        Level(zooms: 13...19, tile: 25_000, tolerance: 30, quantum: 4, overlap: 20, margin: 5_000),
    ]
    /// How many cells are kept cut at once (a served map moving about the world asks for new ones).
    static let mostCells = 64

    let file: CoastFile
    /// Cells of the first level's grid with every feature cut to them, at full resolution, by x and y: cut
    /// once, by the first tile that needs one, while the cell's other tiles wait (cutting is most of a tile's
    /// cost).
    private let cells = Locked<[Int: Memo<[(CoastFile.Kind, [GridPoint])]>]>([:])

    /// Tiles of `file`.
    public init(file: CoastFile) {
        self.file = file
    }

    /// Tiles of the bundled coasts (`CoastFile.bundled`), shared by every page of the process.
    public static let bundled: CoastTiles? = CoastFile.bundled.map(CoastTiles.init(file:))

    /// The digest of what tiles are made from: the file and the levels.
    public var version: [UInt8] {
        let inputs = InputDigest("coast tiles 1")
        inputs.add(digest: file.version)
        for level in Self.levels {
            for number in [level.zooms.lowerBound, level.zooms.upperBound, level.tile, level.quantum, level.overlap] {
                inputs.add(number)
            }
            inputs.add(Int(level.tolerance * 1000))
        }
        return inputs.finishDigest()
    }

    /// A tile of a level: its column from 180° W and its row from the south pole.
    public struct Tile: Sendable, Hashable {
        public let x: Int
        public let y: Int

        /// How pages name it: "x/y".
        public var key: String { "\(x)/\(y)" }

        /// Its path under the coasts' folder at `level`: "level/x/y.js".
        public func path(level: Int) -> String { "\(level)/\(x)/\(y).js" }
    }

    /// The tiles of each level within its margin of `coordinates`, west to east, south to north.
    public static func tiles(around coordinates: [Coordinate]) -> [[Tile]] {
        levels.map { level in
            // Tiles as numbers while they are gathered: a page of 100,000 photos names few tiles, many times.
            var tiles = Set<Int>()
            let columns = 360 * GridPoint.perDegree / level.tile, rows = 180 * GridPoint.perDegree / level.tile
            for coordinate in coordinates {
                let x = Int((coordinate.longitude + 180) * Double(GridPoint.perDegree))
                let y = Int((coordinate.latitude + 90) * Double(GridPoint.perDegree))
                let ys = max(0, (y - level.margin) / level.tile)...min(rows - 1, (y + level.margin) / level.tile)
                let west = Int((Double(x - level.margin) / Double(level.tile)).rounded(.down))
                for column in west...((x + level.margin) / level.tile) {
                    for row in ys { tiles.insert((column + columns) % columns * rows + row) }
                }
            }
            return tiles.sorted().map { Tile(x: $0 / rows, y: $0 % rows) }
        }
    }

    /// The tile at `x`, `y` of `level` as its script; nil when there is no such tile.
    public func script(level: Int, x: Int, y: Int) -> String? {
        guard Self.levels.indices.contains(level) else { return nil }
        let spec = Self.levels[level]
        let columns = 360 * GridPoint.perDegree / spec.tile, rows = 180 * GridPoint.perDegree / spec.tile
        guard (0..<columns).contains(x), (0..<rows).contains(y) else { return nil }
        let origin = GridPoint(x * spec.tile - 180 * GridPoint.perDegree, y * spec.tile - 90 * GridPoint.perDegree)
        let rect = GridRect(
            west: Int(origin.x), south: Int(origin.y), east: Int(origin.x) + spec.tile,
            north: Int(origin.y) + spec.tile
        ).expanded(by: spec.overlap)
        let perCell = Self.levels[0].tile / spec.tile
        var json = ScriptJSON(capacity: 4096)
        json.raw("photomapCoast(")
        json.string("\(level)/\(x)/\(y)")
        json.raw(",")
        let features = cell(x: x / perCell, y: y / perCell).flatMap { kind, points in
            let pieces =
                kind.isRing ? [RectangleClipping.ring(points, to: rect)] : RectangleClipping.line(points, to: rect)
            return pieces.compactMap { piece -> [Int]? in
                // An island or a pond under two tolerances across is a speck at the level's zooms.
                guard !kind.isRing || !Self.isSpeck(piece, size: 2 * spec.tolerance) else { return nil }
                return Self.numbers(
                    LineSimplification.simplified(piece, tolerance: spec.tolerance), kind: kind, origin: origin,
                    quantum: spec.quantum)
            }
        }
        json.array(features) { json, numbers in json.array(numbers) { $0.number($1) } }
        json.raw(");\n")
        return json.text
    }

    /// Whether all of `points` lie within `size` units of each other, east to west and north to south.
    static func isSpeck(_ points: [GridPoint], size: Double) -> Bool {
        guard let first = points.first else { return true }
        var (west, east, south, north) = (first.x, first.x, first.y, first.y)
        for point in points {
            (west, east) = (min(west, point.x), max(east, point.x))
            (south, north) = (min(south, point.y), max(north, point.y))
        }
        return Double(Int(east) - Int(west)) < size && Double(Int(north) - Int(south)) < size
    }

    /// A feature's numbers in a tile: its kind, its first point from the tile's south-west corner, then
    /// each next point's steps, in quanta; nil when too little of it is left to draw.
    static func numbers(_ points: [GridPoint], kind: CoastFile.Kind, origin: GridPoint, quantum: Int) -> [Int]? {
        var numbers = [Int(kind.rawValue)]
        numbers.reserveCapacity(points.count * 2 + 1)
        var last: (Int, Int)? = nil
        var count = 0
        for point in points {
            let x = Int((Double(Int(point.x) - Int(origin.x)) / Double(quantum)).rounded())
            let y = Int((Double(Int(point.y) - Int(origin.y)) / Double(quantum)).rounded())
            if let (lastX, lastY) = last {
                guard x != lastX || y != lastY else { continue }
                numbers += [x - lastX, y - lastY]
            } else {
                numbers += [x, y]
            }
            last = (x, y)
            count += 1
        }
        return count >= (kind.isRing ? 4 : 2) ? numbers : nil
    }

    /// The features of the first level's tile at `x`, `y`, cut to it (and its overlap) at full resolution.
    /// A ring that goes on past the 180th meridian is met again a world to the west.
    private func cell(x: Int, y: Int) -> [(CoastFile.Kind, [GridPoint])] {
        let memo = cells.withLock { cells in
            let key = x * 1000 + y
            if let memo = cells[key] { return memo }
            if cells.count >= Self.mostCells { cells.removeAll() }
            let memo = Memo<[(CoastFile.Kind, [GridPoint])]>()
            cells[key] = memo
            return memo
        }
        return memo.value { cut(x: x, y: y) }
    }

    /// The features of the first level's tile at `x`, `y`, cut to it: `cell`'s work.
    private func cut(x: Int, y: Int) -> [(CoastFile.Kind, [GridPoint])] {
        let spec = Self.levels[0]
        let world = 360 * GridPoint.perDegree
        let rect = GridRect(
            west: x * spec.tile - 180 * GridPoint.perDegree, south: y * spec.tile - 90 * GridPoint.perDegree,
            east: (x + 1) * spec.tile - 180 * GridPoint.perDegree, north: (y + 1) * spec.tile - 90 * GridPoint.perDegree
        ).expanded(by: spec.overlap)
        // The cell as the features' own longitudes see it, and the world to the east and to the west.
        let shifts = [0, world, -world].map { ($0, rect.shifted($0)) }
        var cut: [(CoastFile.Kind, [GridPoint])] = []
        for header in file.headers {
            for (shift, shifted) in shifts where header.bounds.intersects(shifted) {
                func unshifted(_ points: [GridPoint]) -> [GridPoint] {
                    shift == 0 ? points : points.map { GridPoint(x: $0.x - Int32(shift), y: $0.y) }
                }
                if header.kind.isRing {
                    // A ring wholly inside stays as it is; one around the cell becomes its rectangle.
                    let ring =
                        shifted.contains(header.bounds)
                        ? unshifted(file.points(of: header))
                        : RectangleClipping.ring(unshifted(file.ring(of: header, near: shifted)), to: rect)
                    if !ring.isEmpty { cut.append((header.kind, ring)) }
                } else {
                    for run in file.runs(of: header, meeting: shifted) {
                        for piece in RectangleClipping.line(unshifted(run), to: rect) {
                            cut.append((header.kind, piece))
                        }
                    }
                }
            }
        }
        return cut
    }
}

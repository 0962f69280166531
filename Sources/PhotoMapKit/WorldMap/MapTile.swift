// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A Web-Mercator tile of the map of everything (`/api/map/Z/X/Y.json`): zoom 0 is the world in one
/// tile, each zoom splits a tile in four; a point belongs to the tile the slippy-map formulas' floor
/// gives, beyond ±85.0511° to the top or bottom row.
///
/// Every located photo has a `key`: its tile at `keyZoom`, as a Morton code (the bits of x and y
/// interleaved), so the photos of any tile, and of any cluster's cell, are one range of keys. The
/// databases make the same key in SQL (`MapGridSQL`), by the same operations in the same order.
public struct MapTile: Sendable, Hashable, CustomStringConvertible {
    public let zoom: Int
    public let x: Int
    public let y: Int

    /// The deepest zoom answered.
    public static let maximumZoom = 22
    /// Clusters are cells of 1/8 of a tile a side (32 px of a 256 px tile): at most 64 a tile.
    static let cellBits = 3
    /// The zoom of the points' keys: the cells of the deepest tile.
    static let keyZoom = maximumZoom + cellBits
    /// The zooms whose cells the database keeps counted (`map_cells`); deeper tiles read their points.
    public static let aggregatedZooms = 0...16
    /// The cell levels (zoom + `cellBits`) the database keeps.
    static var cellLevels: ClosedRange<Int> { levels(of: aggregatedZooms) }
    /// The zooms whose cells the database also keeps totalled over every month (`map_totals`): their tiles
    /// without a range read a row a cell and audience, not one a month.
    static let totalledZooms = 0...5
    static var totalLevels: ClosedRange<Int> { levels(of: totalledZooms) }

    private static func levels(of zooms: ClosedRange<Int>) -> ClosedRange<Int> {
        (zooms.lowerBound + cellBits)...(zooms.upperBound + cellBits)
    }
    /// Latitudes beyond this are clamped before the projection: any beyond ±85.0511° is in an edge row.
    static let clampedLatitude = 85.06

    /// The tile, or nil when `zoom` is outside 0…22 or `x`, `y` outside 0…2^zoom − 1.
    public init?(zoom: Int, x: Int, y: Int) {
        guard (0...Self.maximumZoom).contains(zoom), (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y)
        else { return nil }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The tile a request path names, `Z/X/Y.json` (decimal digits only), or nil.
    public init?(path: String) {
        guard path.hasSuffix(".json") else { return nil }
        let parts = path.dropLast(5).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0 >= "0" && $0 <= "9" } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        self.init(zoom: numbers[0], x: numbers[1], y: numbers[2])
    }

    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// The keys of the points in this tile.
    var keys: ClosedRange<Int64> { Self.keys(ofCell: Self.interleave(Int64(x), Int64(y)), level: zoom) }

    /// The level of the cells its clusters are made of.
    var cellLevel: Int { zoom + Self.cellBits }

    /// The keys of the points in cell `cell` (a Morton code) at `level`.
    static func keys(ofCell cell: Int64, level: Int) -> ClosedRange<Int64> {
        let shift = Int64(2 * (keyZoom - level))
        return (cell << shift)...(((cell + 1) << shift) - 1)
    }

    /// The cell at `level` of the point with `key`.
    static func cell(ofKey key: Int64, level: Int) -> Int64 { key >> Int64(2 * (keyZoom - level)) }

    /// The point's key: its tile at `keyZoom`, x and y interleaved (x in the even bits).
    public static func key(latitude: Double, longitude: Double) -> Int64 {
        let scale = Double(1 << keyZoom), last = Int64(1 << keyZoom) - 1
        let latitude = max(-clampedLatitude, min(clampedLatitude, latitude))
        let x = Int64(max(0, min(Double(last), ((longitude + 180) / 360 * scale).rounded(.down))))
        let projected = 0.5 - log(tan(Double.pi / 4 + latitude * Double.pi / 360)) / (2 * Double.pi)
        let y = Int64(max(0, min(Double(last), (projected * scale).rounded(.down))))
        return interleave(x, y)
    }

    /// `x` in the even bits, `y` in the odd ones (each below 2^32).
    static func interleave(_ x: Int64, _ y: Int64) -> Int64 { spread(x) | (spread(y) << 1) }

    /// The masks that spread 32 bits over the even bits of 64, a step at a time: (shift, mask).
    static let spreadSteps: [(shift: Int64, mask: Int64)] = [
        (16, 0x0000_FFFF_0000_FFFF), (8, 0x00FF_00FF_00FF_00FF), (4, 0x0F0F_0F0F_0F0F_0F0F),
        (2, 0x3333_3333_3333_3333), (1, 0x5555_5555_5555_5555),
    ]

    private static func spread(_ value: Int64) -> Int64 {
        spreadSteps.reduce(value) { bits, step in (bits | (bits << step.shift)) & step.mask }
    }

    /// The latitudes and longitudes a tile spans, widened a little (the key decides, not these): the
    /// edge rows reach the poles.
    var bounds: (south: Double, west: Double, north: Double, east: Double) {
        let tiles = Double(1 << zoom), margin = 1e-9
        func latitude(_ row: Int) -> Double {
            atan(sinh(Double.pi * (1 - 2 * Double(row) / tiles))) * 180 / Double.pi
        }
        return (
            south: y == (1 << zoom) - 1 ? -90 : latitude(y + 1) - margin,
            west: Double(x) / tiles * 360 - 180 - margin,
            north: y == 0 ? 90 : latitude(y) + margin,
            east: x == (1 << zoom) - 1 ? 180 : Double(x + 1) / tiles * 360 - 180 + margin
        )
    }
}

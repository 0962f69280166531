// SPDX-License-Identifier: Apache-2.0
/// A point of the coasts' data: whole numbers of 1/`GridPoint.perDegree` degree (about a metre), x
/// east and y north. Whole numbers keep clipping exact where a line runs along a tile's edge.
public struct GridPoint: Sendable, Hashable {
    /// Units per degree.
    public static let perDegree = 100_000

    public var x: Int32
    public var y: Int32

    /// The point at `x`, `y` units.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    /// The point at `x`, `y` units, from wider numbers (clipping's crossings).
    init(_ x: Int, _ y: Int) {
        self.init(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y))
    }
}

/// A rectangle of the grid, edges included: a tile, or the bounds of a ring or line.
public struct GridRect: Sendable, Hashable {
    public var west: Int
    public var south: Int
    public var east: Int
    public var north: Int

    /// The rectangle between these edges.
    public init(west: Int, south: Int, east: Int, north: Int) {
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
    }

    /// Whether the two share any point.
    func intersects(_ other: GridRect) -> Bool {
        west <= other.east && other.west <= east && south <= other.north && other.south <= north
    }

    /// Whether `other` lies wholly inside.
    func contains(_ other: GridRect) -> Bool {
        west <= other.west && other.east <= east && south <= other.south && other.north <= north
    }

    /// The same rectangle `by` units wider on every side.
    func expanded(by margin: Int) -> GridRect {
        GridRect(west: west - margin, south: south - margin, east: east + margin, north: north + margin)
    }

    /// The same rectangle moved `dx` units east.
    func shifted(_ dx: Int) -> GridRect {
        GridRect(west: west + dx, south: south, east: east + dx, north: north)
    }
}

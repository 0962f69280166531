// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// A boundary layer prepared for point-in-polygon: a grid of quarter-degree cells, each holding, for every
/// region that reaches into it, the region's edges that cross the cell and whether the cell's centre is
/// inside the region. A point is then inside a region when the edges met on the way from the point to
/// its cell's centre (across, then up or down, never leaving the cell) flip the centre's answer an odd
/// number of times: a few edges looked at, not the whole outline of Russia.
public struct BoundaryIndex: Sendable {
    /// The layer's regions, numbered as its rings name them.
    public let regions: [Boundaries.Region]
    /// The layer's points (`Boundaries.Layer`'s steps); an edge is a point and the next.
    let longitudeSteps: FlatColumn<Int32>
    let latitudeSteps: FlatColumn<Int32>

    static let cellsPerDegree = 4.0
    static let columns = 360 * 4
    static let rows = 180 * 4
    /// Entries of cell `c`: `cellStarts[c]..<cellStarts[c + 1]`. An entry is a region reaching into a cell
    /// (a layer has 400,000 of them).
    let cellStarts: FlatColumn<Int32>
    /// Each entry's region number, its top bit set when the cell's centre is inside the region.
    let entryRegions: FlatColumn<UInt32>
    /// Each entry's edges: `edges[entryEdgeStarts[e]..<entryEdgeStarts[e + 1]]`, each the index of the
    /// edge's first point (one more start than entries marks where the edges end).
    let entryEdgeStarts: FlatColumn<Int32>
    let edges: FlatColumn<Int32>

    /// An index as a file holds it (the other init's columns).
    init(
        regions: [Boundaries.Region], longitudeSteps: FlatColumn<Int32>, latitudeSteps: FlatColumn<Int32>,
        cellStarts: FlatColumn<Int32>, entryRegions: FlatColumn<UInt32>, entryEdgeStarts: FlatColumn<Int32>,
        edges: FlatColumn<Int32>
    ) {
        self.regions = regions
        self.longitudeSteps = longitudeSteps
        self.latitudeSteps = latitudeSteps
        self.cellStarts = cellStarts
        self.entryRegions = entryRegions
        self.entryEdgeStarts = entryEdgeStarts
        self.edges = edges
    }

    /// Indexes `layer`.
    public init(_ layer: Boundaries.Layer) {
        regions = layer.regions
        longitudeSteps = FlatColumn(layer.longitudeSteps)
        latitudeSteps = FlatColumn(layer.latitudeSteps)
        let (xs, ys) = (layer.longitudeSteps, layer.latitudeSteps)
        // Every cell an edge's bounding box meets, as one sortable key: cell, region, edge.
        var crossings: [UInt64] = []
        crossings.reserveCapacity(xs.count + xs.count / 4)
        // Every cell whose centre lies inside a region: cell, region.
        var centresInside: [UInt64] = []
        var ringsOfRegion = [[Int]](repeating: [], count: layer.regions.count)
        for (ring, region) in layer.ringRegions.enumerated() { ringsOfRegion[region].append(ring) }
        for (region, rings) in ringsOfRegion.enumerated() {
            // Crossings of the region's edges with each row's centre line, for the centres' answers.
            var rowCrossings: [(row: Int, x: Double)] = []
            for ring in rings {
                for edge in layer.ringStarts[ring]..<(layer.ringStarts[ring + 1] - 1) {
                    let (x1, y1) = (Boundaries.degrees(xs[edge]), Boundaries.degrees(ys[edge]))
                    let (x2, y2) = (Boundaries.degrees(xs[edge + 1]), Boundaries.degrees(ys[edge + 1]))
                    for row in Self.row(min(y1, y2))...Self.row(max(y1, y2)) {
                        for column in Self.column(min(x1, x2))...Self.column(max(x1, x2)) {
                            crossings.append(Self.key(cell: row * Self.columns + column, region: region) | UInt64(edge))
                        }
                        let centreY = Self.centre(row: row)
                        if (y1 > centreY) != (y2 > centreY) {
                            rowCrossings.append((row, Self.crossingX(x1, y1, x2, y2, atY: centreY)))
                        }
                    }
                }
            }
            rowCrossings.sort { $0.row != $1.row ? $0.row < $1.row : $0.x < $1.x }
            // Even-odd along each row: a centre is inside between the 1st and 2nd crossing, the 3rd and 4th…
            var index = 0
            while index + 1 < rowCrossings.count {
                let (row, from) = rowCrossings[index]
                guard rowCrossings[index + 1].row == row else {
                    index += 1
                    continue
                }
                let to = rowCrossings[index + 1].x
                var column = max(0, Int(((from + 180) * Self.cellsPerDegree - 0.5).rounded(.up)))
                while column < Self.columns, Self.centre(column: column) < to {
                    if Self.centre(column: column) >= from {
                        centresInside.append(Self.key(cell: row * Self.columns + column, region: region))
                    }
                    column += 1
                }
                index += 2
            }
        }
        // Made region by region, edge by edge, so a stable bucketing by cell leaves them wholly sorted.
        crossings = Self.bucketedByCell(crossings)
        centresInside = Self.bucketedByCell(centresInside)
        // Merged in key order, so each cell's entries come out together and in region order.
        var entryRegions: [UInt32] = []
        var entryEdgeStarts: [Int32] = []
        var entryCells: [Int] = []
        var edges: [Int32] = []
        edges.reserveCapacity(crossings.count)
        var next = 0
        var nextInside = 0
        let cellAndRegion = ~Self.edgeMask
        while next < crossings.count || nextInside < centresInside.count {
            let key = min(
                next < crossings.count ? crossings[next] & cellAndRegion : .max,
                nextInside < centresInside.count ? centresInside[nextInside] : .max)
            let start = edges.count
            while next < crossings.count, crossings[next] & cellAndRegion == key {
                edges.append(Int32(crossings[next] & Self.edgeMask))
                next += 1
            }
            var inside = false
            while nextInside < centresInside.count, centresInside[nextInside] == key {
                inside = true
                nextInside += 1
            }
            entryRegions.append(UInt32((key >> Self.regionShift) & Self.edgeMask) | (inside ? 1 << 31 : 0))
            entryEdgeStarts.append(Int32(start))
            entryCells.append(Int(key >> Self.cellShift))
        }
        entryEdgeStarts.append(Int32(edges.count))
        var cellStarts = [Int32](repeating: 0, count: Self.columns * Self.rows + 1)
        for cell in entryCells { cellStarts[cell + 1] += 1 }
        for cell in 0..<(Self.columns * Self.rows) { cellStarts[cell + 1] += cellStarts[cell] }
        self.cellStarts = FlatColumn(cellStarts)
        self.entryRegions = FlatColumn(entryRegions)
        self.entryEdgeStarts = FlatColumn(entryEdgeStarts)
        self.edges = FlatColumn(edges)
    }

    /// `keys` stably ordered by their cell: a counting sort, a pass over a million cells rather than
    /// comparisons (a debug build's generic sort took most of an import's start).
    private static func bucketedByCell(_ keys: [UInt64]) -> [UInt64] {
        var starts = [Int](repeating: 0, count: columns * rows + 1)
        for key in keys { starts[Int(key >> cellShift) + 1] += 1 }
        for cell in 0..<(columns * rows) { starts[cell + 1] += starts[cell] }
        var sorted = [UInt64](repeating: 0, count: keys.count)
        for key in keys {
            let cell = Int(key >> cellShift)
            sorted[starts[cell]] = key
            starts[cell] += 1
        }
        return sorted
    }

    /// Keys sort by cell, then region, then edge: 21 bits each.
    private static let regionShift: UInt64 = 21
    private static let cellShift: UInt64 = 42
    private static let edgeMask: UInt64 = (1 << 21) - 1

    private static func key(cell: Int, region: Int) -> UInt64 {
        UInt64(cell) << cellShift | UInt64(region) << regionShift
    }

    /// The first region (in the layer's order) that contains the point and satisfies `accept`.
    public func region(containing coordinate: Coordinate, where accept: (Int) -> Bool = { _ in true }) -> Int? {
        let (x, y) = (coordinate.longitude, coordinate.latitude)
        let column = Self.column(x)
        let row = Self.row(y)
        let (centreX, centreY) = (Self.centre(column: column), Self.centre(row: row))
        let cell = row * Self.columns + column
        let (xs, ys) = (longitudeSteps, latitudeSteps)
        for entry in entries(of: cell) {
            guard let region = region(of: entry), accept(region) else { continue }
            var inside = entryRegions[entry] >> 31 == 1
            for edge in edges(of: entry) {
                let index = Int(edges[edge])
                let (x1, y1) = (Boundaries.degrees(xs[index]), Boundaries.degrees(ys[index]))
                let (x2, y2) = (Boundaries.degrees(xs[index + 1]), Boundaries.degrees(ys[index + 1]))
                // Across from the point to the centre's meridian, on the point's parallel…
                if (y1 > y) != (y2 > y) {
                    let crossing = Self.crossingX(x1, y1, x2, y2, atY: y)
                    if (crossing > x) != (crossing > centreX) { inside.toggle() }
                }
                // …then along that meridian to the centre.
                if (x1 > centreX) != (x2 > centreX) {
                    let crossing = y1 + (centreX - x1) * (y2 - y1) / (x2 - x1)
                    if (crossing > y) != (crossing > centreY) { inside.toggle() }
                }
            }
            if inside { return region }
        }
        return nil
    }

    /// The region, satisfying `accept`, with an edge nearest the point within `kilometres`, and how far.
    public func nearestRegion(
        to coordinate: Coordinate, within kilometres: Double, where accept: (Int) -> Bool = { _ in true }
    ) -> (region: Int, kilometres: Double)? {
        let kilometresPerDegree = 111.2
        let shrink = max(cos(coordinate.latitude * .pi / 180), 0.01)
        let latitudeSpan = kilometres / kilometresPerDegree
        let longitudeSpan = min(180, latitudeSpan / shrink)
        let (xs, ys) = (longitudeSteps, latitudeSteps)
        var best: (region: Int, kilometres: Double)?
        for row in Self.row(coordinate.latitude - latitudeSpan)...Self.row(coordinate.latitude + latitudeSpan) {
            // Columns wrap across the antimeridian, each visited once.
            let first = Int(((coordinate.longitude - longitudeSpan + 180) * Self.cellsPerDegree).rounded(.down))
            let last = Int(((coordinate.longitude + longitudeSpan + 180) * Self.cellsPerDegree).rounded(.down))
            for step in first...min(last, first + Self.columns - 1) {
                let cell = row * Self.columns + (step % Self.columns + Self.columns) % Self.columns
                for entry in entries(of: cell) {
                    guard let region = region(of: entry), accept(region) else { continue }
                    for edge in edges(of: entry) {
                        let index = Int(edges[edge])
                        // Kilometres east and north of the point, on a plane: enough within a few km.
                        func local(_ at: Int) -> (Double, Double) {
                            var dx = Boundaries.degrees(xs[at]) - coordinate.longitude
                            if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
                            return (
                                dx * shrink * kilometresPerDegree,
                                (Boundaries.degrees(ys[at]) - coordinate.latitude) * kilometresPerDegree
                            )
                        }
                        let distance = Self.distanceToSegment(local(index), local(index + 1))
                        if distance <= kilometres, distance < best?.kilometres ?? .infinity {
                            best = (region, distance)
                        }
                    }
                }
            }
        }
        return best
    }

    /// The entries of cell `cell`, within the entries there are however a damaged file's starts lie.
    private func entries(of cell: Int) -> Range<Int> {
        Self.clamped(Int(cellStarts[cell]), Int(cellStarts[cell + 1]), within: entryRegions.count)
    }

    /// The indices into `edges` of entry `entry`'s edges.
    private func edges(of entry: Int) -> Range<Int> {
        Self.clamped(Int(entryEdgeStarts[entry]), Int(entryEdgeStarts[entry + 1]), within: edges.count)
    }

    /// The region of entry `entry`; nil for a number beyond the layer's (a damaged file).
    private func region(of entry: Int) -> Int? {
        let region = Int(entryRegions[entry] & 0x7FFF_FFFF)
        return region < regions.count ? region : nil
    }

    private static func clamped(_ from: Int, _ to: Int, within count: Int) -> Range<Int> {
        let start = min(max(from, 0), count)
        return start..<min(max(to, start), count)
    }

    /// How far the origin is from the segment a–b.
    private static func distanceToSegment(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1)
        let length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : min(1, max(0, -(a.0 * dx + a.1 * dy) / length2))
        return hypot(a.0 + t * dx, a.1 + t * dy)
    }

    private static func crossingX(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, atY y: Double) -> Double {
        x1 + (y - y1) * (x2 - x1) / (y2 - y1)
    }

    private static func column(_ longitude: Double) -> Int {
        min(max(Int(((longitude + 180) * cellsPerDegree).rounded(.down)), 0), columns - 1)
    }

    private static func row(_ latitude: Double) -> Int {
        min(max(Int(((latitude + 90) * cellsPerDegree).rounded(.down)), 0), rows - 1)
    }

    private static func centre(column: Int) -> Double { (Double(column) + 0.5) / cellsPerDegree - 180 }
    private static func centre(row: Int) -> Double { (Double(row) + 0.5) / cellsPerDegree - 90 }
}

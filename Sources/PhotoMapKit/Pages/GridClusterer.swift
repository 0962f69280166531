// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Clusters points ahead of time for every zoom level, the way supercluster's grid method does:
/// at each zoom, points falling in the same cell of a `radius`-pixel grid over the Web Mercator world
/// become one cluster at their mean position. The page then loads, per zoom, only the 256-pixel tiles
/// in view, so 100,000 annotations cost the browser no more than the few hundred it shows.
///
/// A page that clusters its own annotations (photomap-clusters.js, `clustersAt`) follows the same rule with the
/// radius and last zoom this writes into the page (`MapData.cluster`); a test runs both on the same
/// points at every zoom.
public struct GridClusterer: Sendable, Encodable {
    /// One cluster, or a single annotation (`feature` set) when alone in its cell.
    public struct Cluster: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var count: Int
        /// The feature's index when the cluster holds exactly one.
        public var feature: Int?
        /// Its photos taken in each month (`MonthTaken.histogram`), so that a page's timeline can count
        /// them without their records; empty when none has a date.
        public var months: [Int] = []
        /// Its photos' indices, when it has more than one and names them (`mostMembers`).
        public var members: [Int] = []
    }

    /// At this zoom and above, every annotation is shown on its own (from the last zoom's tiles), but
    /// those at one spot (`spot`), which stay one cluster.
    public var maximumZoom: Int
    /// The grid cell's size in screen pixels.
    public var radius: Double

    /// A clusterer with supercluster's defaults (zoom 0–16, 60-pixel cells).
    public init(maximumZoom: Int = 16, radius: Double = 60) {
        self.maximumZoom = maximumZoom
        self.radius = radius
    }

    /// The rule as the page reads it: `{"lastZoom": 16, "radius": 60, "spot": 4}`.
    public func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case lastZoom, radius, spot }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(maximumZoom, forKey: .lastZoom)
        try container.encode(radius, forKey: .radius)
        try container.encode(Self.spot, forKey: .spot)
    }

    /// At the last zoom, photos within a cell this many pixels wide are at one spot: one cluster, which
    /// no zoom would split, opened as a grid of its photos.
    public static let spot = 4.0
    /// A cluster of at most this many photos (or, at the last zoom, of any number) names them (`members`),
    /// so that a pre-clustered page can show them as a grid: one page of the grid.
    public static let mostMembers = 100

    /// The clusters of `zoom` (0 through `maximumZoom`) by tile "x/y": asked a zoom at a time, so that
    /// the clusters of every zoom (~400,000 for 100,000 points) are never all held at once. With
    /// `months` (by point index, `MonthTaken`), each cluster counts its photos by month.
    public func clusters(
        of points: [(index: Int, coordinate: Coordinate)], zoom: Int, months: [Int?]? = nil
    ) -> [String: [Cluster]] {
        let worldSize = 256 * pow(2, Double(zoom))
        let cellSize = zoom == maximumZoom ? Self.spot : radius
        var cells: [Int64: (x: Double, y: Double, count: Int, first: Int)] = [:]
        var byMonth: [Int64: [Int: Int]] = [:]
        var members: [Int64: [Int]] = [:]
        for point in points {
            let (x, y) = Self.project(point.coordinate, worldSize: worldSize)
            let key = Self.cell(x / cellSize, y / cellSize)
            if let month = months?[point.index] { byMonth[key, default: [:]][month, default: 0] += 1 }
            members[key, default: []].append(point.index)
            if var existing = cells[key] {
                existing.x += x
                existing.y += y
                existing.count += 1
                cells[key] = existing
            } else {
                cells[key] = (x, y, 1, point.index)
            }
        }
        var tiles: [String: [Cluster]] = [:]
        let last = Int(worldSize / 256) - 1
        // In the order of their first points: the same tiles, byte for byte, every time (a
        // dictionary's order changes from run to run, and a changed tile is written again).
        for (key, accumulated) in cells.sorted(by: { $0.value.first < $1.value.first }) {
            let x = accumulated.x / Double(accumulated.count), y = accumulated.y / Double(accumulated.count)
            let (latitude, longitude) = Self.unproject(x: x, y: y, worldSize: worldSize)
            let tile = "\(min(max(Int(x / 256), 0), last))/\(min(max(Int(y / 256), 0), last))"
            let named = accumulated.count > 1 && (zoom == maximumZoom || accumulated.count <= Self.mostMembers)
            tiles[tile, default: []].append(
                Cluster(
                    latitude: latitude, longitude: longitude,
                    count: accumulated.count,
                    feature: accumulated.count == 1 ? accumulated.first : nil,
                    months: byMonth[key].map { counts in counts.keys.sorted().flatMap { [$0, counts[$0] ?? 0] } }
                        ?? [],
                    members: named ? members[key] ?? [] : []))
        }
        return tiles
    }

    /// The grid cell holding a point, from its position in cells (rounded down, as the page's Math.floor).
    static func cell(_ x: Double, _ y: Double) -> Int64 {
        Int64(x.rounded(.down)) << 32 | Int64(UInt32(truncatingIfNeeded: Int64(y.rounded(.down))))
    }

    /// Web Mercator pixel position in a world `worldSize` pixels wide, as Leaflet projects (latitudes
    /// past its limit held at it; longitude 180 at the world's right edge, in the last tile).
    static func project(_ coordinate: Coordinate, worldSize: Double) -> (Double, Double) {
        let x = (coordinate.longitude + 180) / 360 * worldSize
        let limit = 85.0511287798
        let sine = sin(min(max(coordinate.latitude, -limit), limit) * .pi / 180)
        let y = (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * worldSize
        return (x, y)
    }

    static func unproject(x: Double, y: Double, worldSize: Double) -> (Double, Double) {
        let longitude = x / worldSize * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y / worldSize))) * 180 / .pi
        return (latitude, longitude)
    }
}

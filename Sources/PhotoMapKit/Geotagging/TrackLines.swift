// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The GPX tracks given to `import --gpx` and `geotag`, as maps draw them: each segment a line of points in
/// the file's order. The catalog keeps them; a page draws the part within its area, simplified.
public struct TrackLines: Sendable, Equatable {
    /// Each segment's points.
    public let lines: [[Coordinate]]
    /// When each line's first point was recorded, in seconds since 1970 (UTC); nil for a line kept before
    /// tracks' times were (then it belongs to no trip's days, `TripRoutes`).
    public let starts: [Double?]

    /// The most points a page draws: a 100,000-point day's walk costs a page at most ~20 kB.
    public static let pointsPerPage = 2_000

    /// The digest of every line's points, in order: an input of every page.
    public let digest: [UInt8]
    /// Each line's stretches of `chunk` points, with the box around them and the point either side: a
    /// page looks into the stretches whose box meets its own, so ten thousand photo pages do not each
    /// walk every point.
    private let boxes: [[Box]]
    private static let chunk = 128

    /// Degrees south to north and west to east.
    private struct Box: Sendable, Equatable {
        var latitudes: ClosedRange<Double>
        var longitudes: ClosedRange<Double>

        func meets(_ other: Box) -> Bool {
            latitudes.overlaps(other.latitudes) && longitudes.overlaps(other.longitudes)
        }
    }

    /// The fences the lines were cut by (`[Geofence].shown`): a drawing is cut by them again once
    /// simplified, since a chord that stands for a curve round a fence may cross it.
    let cutBy: [Geofence]

    /// Lines of `lines`, the ones with fewer than two points left out (nothing to draw), cut by `fences`.
    init(_ lines: [[Coordinate]] = [], starts: [Double?] = [], cutBy fences: [Geofence]) {
        let kept = lines.indices.filter { lines[$0].count > 1 }
        self.lines = kept.map { lines[$0] }
        self.starts = kept.map { $0 < starts.count ? starts[$0] : nil }
        cutBy = fences
        let inputs = InputDigest()
        inputs.add(self.lines.count)
        for line in self.lines {
            inputs.add(line.count)
            for point in line { inputs.add(point) }
        }
        digest = inputs.finishDigest()
        boxes = self.lines.map { line in
            stride(from: 0, to: line.count, by: Self.chunk).map { start in
                let around = line[max(start - 1, 0)..<min(start + Self.chunk + 1, line.count)]
                var box = Box(
                    latitudes: around[around.startIndex].latitude...around[around.startIndex].latitude,
                    longitudes: around[around.startIndex].longitude...around[around.startIndex].longitude)
                for point in around {
                    box.latitudes =
                        min(box.latitudes.lowerBound, point.latitude)...max(box.latitudes.upperBound, point.latitude)
                    box.longitudes =
                        min(
                            box.longitudes.lowerBound, point.longitude)...max(
                            box.longitudes.upperBound, point.longitude)
                }
                return box
            }
        }
    }

    /// Lines of `lines`, the ones with fewer than two points left out (nothing to draw).
    public init(_ lines: [[Coordinate]] = []) {
        self.init(lines, cutBy: [])
    }

    /// Lines of `lines`, each begun at the time at the same place in `starts` (nil or missing: unknown).
    public init(_ lines: [[Coordinate]], starts: [Double?]) {
        self.init(lines, starts: starts, cutBy: [])
    }

    /// Whether there is no line.
    public var isEmpty: Bool { lines.isEmpty }

    /// Equal when the lines are.
    public static func == (lhs: TrackLines, rhs: TrackLines) -> Bool { lhs.lines == rhs.lines }

    /// The parts of the lines a page around `located` draws: every point within the box around them
    /// (widened by a quarter of its size, and at least `margin` degrees), with the one before and after it
    /// so that a line runs on past the edge; simplified (`TrackSimplifier`, Douglas–Peucker) to at most
    /// `limit` points in all.
    /// Nil when no line passes there.
    public func drawing(
        around located: [Coordinate], margin: Double = 0.03, limit: Int = pointsPerPage
    ) -> TrackDrawing? {
        guard !lines.isEmpty, let first = located.first else { return nil }
        var (south, north, west, east) = (first.latitude, first.latitude, first.longitude, first.longitude)
        for point in located.dropFirst() {
            south = min(south, point.latitude)
            north = max(north, point.latitude)
            west = min(west, point.longitude)
            east = max(east, point.longitude)
        }
        let latitudePad = max((north - south) / 4, margin)
        let longitudePad = max((east - west) / 4, margin)
        let latitudes = (south - latitudePad)...(north + latitudePad)
        let longitudes = (west - longitudePad)...(east + longitudePad)
        func inside(_ point: Coordinate) -> Bool {
            latitudes.contains(point.latitude) && longitudes.contains(point.longitude)
        }
        let area = Box(latitudes: latitudes, longitudes: longitudes)
        var runs: [ArraySlice<Coordinate>] = []
        for (line, boxes) in zip(lines, boxes) {
            var start: Int?
            for (number, box) in boxes.enumerated() {
                let stretch = (number * Self.chunk)..<min((number + 1) * Self.chunk, line.count)
                // No point of the stretch, nor either neighbour, is in the area: none is kept.
                guard box.meets(area) else {
                    if let from = start { runs.append(line[from..<stretch.lowerBound]) }
                    start = nil
                    continue
                }
                for index in stretch {
                    let kept =
                        inside(line[index]) || (index > 0 && inside(line[index - 1]))
                        || (index + 1 < line.count && inside(line[index + 1]))
                    if kept, start == nil { start = index }
                    if !kept, let from = start {
                        runs.append(line[from..<index])
                        start = nil
                    }
                }
            }
            if let from = start { runs.append(line[from...]) }
        }
        runs.removeAll { $0.count < 2 }
        guard !runs.isEmpty else { return nil }
        // Finer than a 20,000th of the box's diagonal no screen shows.
        let centre = (south + north) / 2
        let width = (longitudes.upperBound - longitudes.lowerBound) * cos(centre * .pi / 180)
        let height = latitudes.upperBound - latitudes.lowerBound
        let simplified = TrackSimplifier(
            centreLatitude: centre, tolerance: (width * width + height * height).squareRoot() / 20_000
        ).simplify(runs, limit: limit)
        let drawn = cutBy.cut(simplified)
        return drawn.isEmpty ? nil : TrackDrawing(drawn)
    }
}

import Foundation

/// The GPX tracks given to `import --gpx` and `geotag`, as maps draw them: each segment a line of points in
/// the file's order. The catalog keeps them; a page draws the part within its area, simplified.
public struct TrackLines: Sendable, Equatable {
    /// Each segment's points.
    public let lines: [[Coordinate]]

    /// The most points a page draws: a 100,000-point day's walk costs a page at most ~20 kB.
    public static let pointsPerPage = 2_000

    /// Lines of `lines`, the ones with fewer than two points left out (nothing to draw).
    public init(_ lines: [[Coordinate]] = []) {
        self.lines = lines.filter { $0.count > 1 }
    }

    /// Whether there is no line.
    public var isEmpty: Bool { lines.isEmpty }

    /// The digest of every line's points, in order: a page's input.
    public var digest: [UInt8] {
        let inputs = InputDigest()
        inputs.add(lines.count)
        for line in lines {
            inputs.add(line.count)
            for point in line { inputs.add(point) }
        }
        return inputs.finishDigest()
    }

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
        var runs: [ArraySlice<Coordinate>] = []
        for line in lines {
            var start: Int?
            for index in line.indices {
                let kept =
                    inside(line[index]) || (index > 0 && inside(line[index - 1]))
                    || (index + 1 < line.count && inside(line[index + 1]))
                if kept, start == nil { start = index }
                if !kept, let from = start {
                    runs.append(line[from..<index])
                    start = nil
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
        return simplified.isEmpty ? nil : TrackDrawing(simplified)
    }
}

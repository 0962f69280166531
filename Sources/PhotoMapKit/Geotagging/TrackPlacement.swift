// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The points tracks can give a photo: each fix, and each stretch between two fixes at most the maximum gap
/// apart. A photo placed from a track whose location lies on them was placed by these tracks (under other
/// settings), so a run with other settings may move or clear it; one elsewhere came from other tracks.
struct TrackPlacement {
    /// A fix, or the stretch between two, in degrees.
    private struct Stretch {
        var from: (latitude: Double, longitude: Double)
        var to: (latitude: Double, longitude: Double)
    }

    /// Cells of `cellSize` degrees each hold the stretches whose bounds meet them; a stretch over more
    /// than `maximumCells` cells (a flight) is kept apart and tried for every location.
    private static let cellSize = 0.1
    private static let maximumCells = 10_000
    /// How far off a stretch a location may be and still lie on it: a centimetre, for the rounding of
    /// an interpolation.
    private static let tolerance = 1e-7

    private var cells: [Cell: [Stretch]] = [:]
    private var wide: [Stretch] = []

    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }

    init(_ fixes: TrackFixes, maximumGap: Double) {
        // A fix's own coordinate: with no gap bridged, the track puts a fix's time at that fix exactly.
        let points = fixes.times.compactMap { fixes.location(at: $0, maximumGap: 0) }
        guard points.count == fixes.times.count else { return }
        for (index, point) in points.enumerated() {
            let here = (point.latitude, point.longitude)
            add(Stretch(from: here, to: here))
            guard index + 1 < points.count, fixes.times[index + 1] - fixes.times[index] <= maximumGap else { continue }
            var next = (points[index + 1].latitude, points[index + 1].longitude)
            // Across the antimeridian the short way round, as the track interpolates.
            if abs(next.1 - here.1) > 180 { next.1 += here.1 < next.1 ? -360 : 360 }
            add(Stretch(from: here, to: next))
        }
    }

    /// Whether `coordinate` lies on a fix or a stretch.
    func contains(_ coordinate: Coordinate) -> Bool {
        for longitude in [coordinate.longitude, coordinate.longitude - 360, coordinate.longitude + 360] {
            let point = (latitude: coordinate.latitude, longitude: longitude)
            let candidates = (cells[Self.cell(point.latitude, point.longitude)] ?? []) + wide
            if candidates.contains(where: { Self.distance(point, $0) <= Self.tolerance }) { return true }
        }
        return false
    }

    private mutating func add(_ stretch: Stretch) {
        let low = Self.cell(
            min(stretch.from.latitude, stretch.to.latitude), min(stretch.from.longitude, stretch.to.longitude))
        let high = Self.cell(
            max(stretch.from.latitude, stretch.to.latitude), max(stretch.from.longitude, stretch.to.longitude))
        // One cell past each side: a location rounded across a cell's edge still finds the stretch.
        let rows = (low.row - 1)...(high.row + 1)
        let columns = (low.column - 1)...(high.column + 1)
        guard rows.count * columns.count <= Self.maximumCells else { return wide.append(stretch) }
        for row in rows {
            for column in columns { cells[Cell(row: row, column: column), default: []].append(stretch) }
        }
    }

    private static func cell(_ latitude: Double, _ longitude: Double) -> Cell {
        Cell(row: Int((latitude / cellSize).rounded(.down)), column: Int((longitude / cellSize).rounded(.down)))
    }

    /// Degrees from `point` to the nearest point of `stretch`, in the plane of latitude and longitude
    /// (where the track interpolates).
    private static func distance(_ point: (latitude: Double, longitude: Double), _ stretch: Stretch) -> Double {
        let dy = stretch.to.latitude - stretch.from.latitude
        let dx = stretch.to.longitude - stretch.from.longitude
        let length = dx * dx + dy * dy
        var fraction = 0.0
        if length > 0 {
            fraction =
                ((point.latitude - stretch.from.latitude) * dy + (point.longitude - stretch.from.longitude) * dx)
                / length
            fraction = min(max(fraction, 0), 1)
        }
        let latitude = stretch.from.latitude + fraction * dy - point.latitude
        let longitude = stretch.from.longitude + fraction * dx - point.longitude
        return (latitude * latitude + longitude * longitude).squareRoot()
    }
}

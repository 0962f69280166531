// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Douglas–Peucker over several lines at once, to a number of points rather than a distance: every line
/// keeps its ends, then the stretch whose farthest point lies farthest from its chord is split there, over
/// and over, until `limit` points are kept. Points closer than `tolerance` to the one kept before them go
/// first (a GPS standing still, or far finer than the page can show), which bounds the work on any track.
struct TrackSimplifier {
    /// Longitudes are scaled by its cosine: distances on a small map are near enough planar.
    let centreLatitude: Double
    /// Degrees (of latitude) below which two consecutive points are one.
    let tolerance: Double

    /// A stretch of a line between two kept points, and its point farthest from their chord.
    private struct Stretch {
        let line: Int
        let from: Int
        let to: Int
        let farthest: Int
        let distance: Double
    }

    /// At most `limit` points of `lines`, each line's ends first; lines left with fewer than two points go.
    func simplify(_ lines: [ArraySlice<Coordinate>], limit: Int) -> [[Coordinate]] {
        let scale = cos(centreLatitude * .pi / 180)
        let planar = lines.map { thinned($0, scale: scale) }.filter { $0.count > 1 }
        guard planar.reduce(0, { $0 + $1.count }) > limit else { return planar.map { $0.map(\.point) } }
        var kept = planar.map { [Bool](repeating: false, count: $0.count) }
        var room = limit
        var stretches: [Stretch] = []
        for (index, line) in planar.enumerated() where room >= 2 {
            kept[index][0] = true
            kept[index][line.count - 1] = true
            room -= 2
            if let whole = stretch(of: line, index, from: 0, to: line.count - 1) { stretches.append(whole) }
        }
        while room > 0, let best = stretches.indices.max(by: { stretches[$0].distance < stretches[$1].distance }) {
            let split = stretches.remove(at: best)
            kept[split.line][split.farthest] = true
            room -= 1
            let line = planar[split.line]
            for part in [(split.from, split.farthest), (split.farthest, split.to)] {
                if let next = stretch(of: line, split.line, from: part.0, to: part.1) { stretches.append(next) }
            }
        }
        return zip(planar, kept).compactMap { line, keep in
            let points = zip(line, keep).filter(\.1).map(\.0.point)
            return points.count > 1 ? points : nil
        }
    }

    /// The line's points with their planar position, each at least `tolerance` from the one before (the
    /// last point always kept).
    private func thinned(_ line: ArraySlice<Coordinate>, scale: Double) -> [(point: Coordinate, x: Double, y: Double)] {
        var kept: [(point: Coordinate, x: Double, y: Double)] = []
        let squared = tolerance * tolerance
        for (offset, point) in line.enumerated() {
            let (x, y) = (point.longitude * scale, point.latitude)
            if let last = kept.last, offset < line.count - 1 {
                let (dx, dy) = (x - last.x, y - last.y)
                if dx * dx + dy * dy < squared { continue }
            }
            kept.append((point, x, y))
        }
        return kept
    }

    /// The stretch from `from` to `to` with its farthest point from the chord (of two as far, the one
    /// nearer the middle, so a straight line splits evenly); nil when no point lies between.
    private func stretch(
        of line: [(point: Coordinate, x: Double, y: Double)], _ index: Int, from: Int, to: Int
    ) -> Stretch? {
        guard to > from + 1 else { return nil }
        let (ax, ay, bx, by) = (line[from].x, line[from].y, line[to].x, line[to].y)
        let (dx, dy) = (bx - ax, by - ay)
        let length = dx * dx + dy * dy
        let middle = (from + to) / 2
        var farthest = from + 1
        var distance = -1.0
        for point in (from + 1)..<to {
            let (px, py) = (line[point].x, line[point].y)
            // The nearest point of the chord (the segment, not the whole line).
            let t = length > 0 ? min(max(((px - ax) * dx + (py - ay) * dy) / length, 0), 1) : 0
            let (ex, ey) = (px - ax - t * dx, py - ay - t * dy)
            let squared = ex * ex + ey * ey
            if squared > distance || (squared == distance && abs(point - middle) < abs(farthest - middle)) {
                distance = squared
                farthest = point
            }
        }
        return Stretch(line: index, from: from, to: to, farthest: farthest, distance: distance)
    }
}

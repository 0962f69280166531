// SPDX-License-Identifier: Apache-2.0
/// Rings and lines cut to a rectangle. A ring is cut edge by edge (Sutherland and Hodgman, 1974): the
/// result is one ring again, its parts outside replaced by runs along the rectangle's edges, which
/// fill nothing, so it is drawn filled and never stroked. A line is cut into the pieces inside.
enum RectangleClipping {
    /// The part of the closed `ring` (its last point may repeat its first) inside `rect`, closed the same
    /// way; empty when nothing of it is inside.
    static func ring(_ ring: [GridPoint], to rect: GridRect) -> [GridPoint] {
        var points = ring
        if points.count > 1, points.first == points.last { points.removeLast() }
        for edge in Edge.allCases {
            guard !points.isEmpty else { break }
            var kept: [GridPoint] = []
            kept.reserveCapacity(points.count + 4)
            var previous = points[points.count - 1]
            var previousInside = edge.keeps(previous, in: rect)
            for point in points {
                let inside = edge.keeps(point, in: rect)
                if inside != previousInside { kept.append(edge.crossing(previous, point, in: rect)) }
                if inside { kept.append(point) }
                (previous, previousInside) = (point, inside)
            }
            points = kept
        }
        guard points.count >= 3 else { return [] }
        return points + [points[0]]
    }

    /// The pieces of the open `line` inside `rect`, each at least two points.
    static func line(_ line: [GridPoint], to rect: GridRect) -> [[GridPoint]] {
        var pieces: [[GridPoint]] = []
        var piece: [GridPoint] = []
        for (start, end) in zip(line, line.dropFirst()) {
            guard let (from, to) = segment(start, end, in: rect) else {
                if piece.count > 1 { pieces.append(piece) }
                piece = []
                continue
            }
            if piece.last != from {
                if piece.count > 1 { pieces.append(piece) }
                piece = [from]
            }
            piece.append(to)
        }
        if piece.count > 1 { pieces.append(piece) }
        return pieces
    }

    /// The part of a segment inside `rect` (Liang and Barsky, 1984), or nil.
    private static func segment(_ a: GridPoint, _ b: GridPoint, in rect: GridRect) -> (GridPoint, GridPoint)? {
        let (x0, y0) = (Double(a.x), Double(a.y))
        let (dx, dy) = (Double(b.x) - x0, Double(b.y) - y0)
        var (low, high) = (0.0, 1.0)
        let bounds: [(Double, Double)] = [
            (-dx, x0 - Double(rect.west)), (dx, Double(rect.east) - x0),
            (-dy, y0 - Double(rect.south)), (dy, Double(rect.north) - y0),
        ]
        for (p, q) in bounds {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { low = max(low, t) } else { high = min(high, t) }
            }
        }
        guard low <= high else { return nil }
        func at(_ t: Double) -> GridPoint {
            t == 0 ? a : t == 1 ? b : GridPoint(Int((x0 + t * dx).rounded()), Int((y0 + t * dy).rounded()))
        }
        return (at(low), at(high))
    }

    /// One side of the rectangle, and the half-plane it keeps.
    private enum Edge: CaseIterable {
        case west, east, south, north

        func keeps(_ point: GridPoint, in rect: GridRect) -> Bool {
            switch self {
            case .west: return Int(point.x) >= rect.west
            case .east: return Int(point.x) <= rect.east
            case .south: return Int(point.y) >= rect.south
            case .north: return Int(point.y) <= rect.north
            }
        }

        /// Where the segment from `a` to `b` (one on each side) crosses this side's line.
        func crossing(_ a: GridPoint, _ b: GridPoint, in rect: GridRect) -> GridPoint {
            let (ax, ay, bx, by) = (Double(a.x), Double(a.y), Double(b.x), Double(b.y))
            switch self {
            case .west, .east:
                let x = Double(self == .west ? rect.west : rect.east)
                return GridPoint(Int(x), Int((ay + (by - ay) * (x - ax) / (bx - ax)).rounded()))
            case .south, .north:
                let y = Double(self == .south ? rect.south : rect.north)
                return GridPoint(Int((ax + (bx - ax) * (y - ay) / (by - ay)).rounded()), Int(y))
            }
        }
    }
}

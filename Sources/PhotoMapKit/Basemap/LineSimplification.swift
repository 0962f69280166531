// SPDX-License-Identifier: Apache-2.0
/// Douglas and Peucker's simplification (1973): of a line's points, those that stand more than
/// `tolerance` units away from the line through the points kept around them. A ring is simplified
/// as a line from its first point back to it; its first and last points are always kept.
enum LineSimplification {
    /// The points of `line` kept at `tolerance` units, in their order.
    static func simplified(_ line: [GridPoint], tolerance: Double) -> [GridPoint] {
        guard line.count > 2 else { return line }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        // Spans still to look at, as a stack: recursion would go as deep as a coast is long.
        var spans = [(0, line.count - 1)]
        let squared = tolerance * tolerance
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            var (farthest, distance) = (first, -1.0)
            for index in first + 1..<last {
                let d = squaredDistance(line[index], from: line[first], to: line[last])
                if d > distance { (farthest, distance) = (index, d) }
            }
            if distance > squared {
                keep[farthest] = true
                spans.append((first, farthest))
                spans.append((farthest, last))
            }
        }
        return line.indices.compactMap { keep[$0] ? line[$0] : nil }
    }

    /// The squared distance from `point` to the segment from `a` to `b` (to `a` when they are one point).
    static func squaredDistance(_ point: GridPoint, from a: GridPoint, to b: GridPoint) -> Double {
        let (px, py) = (Double(point.x) - Double(a.x), Double(point.y) - Double(a.y))
        let (dx, dy) = (Double(b.x) - Double(a.x), Double(b.y) - Double(a.y))
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : min(1, max(0, (px * dx + py * dy) / length))
        let (ex, ey) = (px - t * dx, py - t * dy)
        return ex * ex + ey * ey
    }
}

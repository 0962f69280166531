// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension Geofence {
    /// How far outside a fence a track line others see stops, in metres: a line that ran up to the fence's
    /// edge would point at what the fence hides.
    public static let trackMargin = 50.0

    /// The circle a track line stops at, in metres from the centre: the fence and its margin, and a metre
    /// more, because pages round a line's points to about a metre (`TrackDrawing.scale`) and a rounded
    /// end must still lie outside the margin.
    var trackRadius: Double { radius + Self.trackMargin + 1 }

    /// The pieces of `line` that lie outside `trackRadius`: no point within it, and where a line crosses
    /// it, the piece ends (or starts again) at the point where the line meets the circle. A line drawn
    /// straight between two points outside that passes through the fence is cut there too.
    func cut(_ line: [Coordinate]) -> [[Coordinate]] {
        guard let first = line.first else { return [] }
        let circle = CutCircle(self)
        var pieces: [[Coordinate]] = []
        var piece: [Coordinate] = []
        var previous = (point: first, outside: circle.outside(first))
        if previous.outside >= 0 { piece.append(first) }
        for point in line.dropFirst() {
            let segment = circle.crossings(from: previous, to: point)
            if let exit = segment.exit {
                piece.append(exit)
                pieces.append(piece)
                piece = []
            }
            if let entry = segment.entry { piece.append(entry) }
            if segment.outside >= 0 { piece.append(point) }
            previous = (point, segment.outside)
        }
        pieces.append(piece)
        return pieces.filter { $0.count > 1 }
    }
}

extension [Geofence] {
    /// Track lines as others may see them: cut by every fence (`Geofence.cut`), and their drawings cut
    /// again once simplified (`TrackLines.drawing`).
    public func shown(_ tracks: TrackLines) -> TrackLines {
        guard !isEmpty, !tracks.isEmpty else { return tracks }
        return TrackLines(cut(tracks.lines), cutBy: self)
    }

    /// `lines` cut by every fence. A fence's cut adds points only on segments outside every fence cut
    /// before: the order is free.
    func cut(_ lines: [[Coordinate]]) -> [[Coordinate]] {
        var lines = lines
        for fence in self { lines = lines.flatMap(fence.cut) }
        return lines
    }
}

/// A fence's `trackRadius` as `Geofence.cut` meets it: how far outside a point is (haversine, as
/// `Geofence.contains` measures) and where a straight segment crosses the circle.
private struct CutCircle {
    let centre: Coordinate
    let radius: Double
    /// Latitudes and longitudes no point of the circle lies beyond: segments wholly past them are outside
    /// without a distance worked out.
    let latitudes: ClosedRange<Double>
    let longitudes: ClosedRange<Double>

    init(_ fence: Geofence) {
        centre = fence.centre
        radius = fence.trackRadius
        // A degree of latitude is 111,195 m on `Coordinate.distance`'s sphere; a degree of longitude is that
        // times the cosine of the latitude, least on the circle's side nearest a pole.
        let latitudeSpan = radius / 111_195
        latitudes = (centre.latitude - latitudeSpan)...(centre.latitude + latitudeSpan)
        let widest = (abs(centre.latitude) + latitudeSpan) * .pi / 180
        let longitudeSpan = widest < .pi / 2 ? latitudeSpan / cos(widest) : .infinity
        // Around a pole or across the 180th meridian every longitude may be near: nothing is ruled out.
        let west = centre.longitude - longitudeSpan, east = centre.longitude + longitudeSpan
        longitudes = west >= -180 && east <= 180 ? west...east : -180...180
    }

    /// Metres outside the circle; less than 0 within it.
    func outside(_ point: Coordinate) -> Double {
        point.distance(to: centre) * 1000 - radius
    }

    /// The segment from `start` (with how far outside it is) to `end`: where it leaves the circle (`exit`,
    /// when `start` is outside and the segment goes in), where it comes out again (`entry`, when `end` is
    /// outside), both on the circle and outside it; and how far outside `end` is.
    func crossings(
        from start: (point: Coordinate, outside: Double), to end: Coordinate
    ) -> (exit: Coordinate?, entry: Coordinate?, outside: Double) {
        let (a, b) = (start.point, end)
        guard latitudes.overlaps(min(a.latitude, b.latitude)...max(a.latitude, b.latitude)),
            longitudes.overlaps(min(a.longitude, b.longitude)...max(a.longitude, b.longitude))
        else { return (nil, nil, .infinity) }
        let endOutside = outside(b)
        // The point of the segment nearest the centre, on a flat map around the centre: a segment that
        // does not reach within the circle there (nor at its ends) stays outside it.
        let nearest = nearestFraction(a, b)
        let (deepest, deepestOutside) =
            [(0.0, start.outside), (nearest, outside(point(a, b, nearest))), (1, endOutside)]
            .min { $0.1 < $1.1 } ?? (0, start.outside)
        guard deepestOutside < 0 else { return (nil, nil, endOutside) }
        return (
            start.outside >= 0 ? crossing(a, b, outsideAt: 0, insideAt: deepest) : nil,
            endOutside >= 0 ? crossing(a, b, outsideAt: 1, insideAt: deepest) : nil,
            endOutside
        )
    }

    /// The fraction of the way from `a` to `b` nearest the centre, in 0...1, with longitudes shrunk by the
    /// cosine of the centre's latitude.
    private func nearestFraction(_ a: Coordinate, _ b: Coordinate) -> Double {
        let shrink = cos(centre.latitude * .pi / 180)
        let (x, y) = ((a.longitude - centre.longitude) * shrink, a.latitude - centre.latitude)
        let (dx, dy) = ((b.longitude - a.longitude) * shrink, b.latitude - a.latitude)
        let length = dx * dx + dy * dy
        return length == 0 ? 0 : min(1, max(0, -(x * dx + y * dy) / length))
    }

    /// The point where the segment meets the circle between a fraction outside it and one inside it, by
    /// halving: the last point found outside, within a millimetre of a segment of 1,000 km.
    private func crossing(_ a: Coordinate, _ b: Coordinate, outsideAt out: Double, insideAt inside: Double)
        -> Coordinate
    {
        var (out, inside) = (out, inside)
        for _ in 0..<40 {
            let middle = (out + inside) / 2
            if outside(point(a, b, middle)) >= 0 { out = middle } else { inside = middle }
        }
        return point(a, b, out)
    }

    /// The point a fraction of the way from `a` to `b`, as a page draws the segment (straight in degrees).
    private func point(_ a: Coordinate, _ b: Coordinate, _ fraction: Double) -> Coordinate {
        Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * fraction,
            longitude: a.longitude + (b.longitude - a.longitude) * fraction) ?? a
    }
}

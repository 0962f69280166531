import Foundation

/// A journey away from home: a run of away days and the photos taken on them (`TripFinder`).
public struct Trip: Sendable, Hashable {
    /// Its first day, "YYYY-MM-DD": no two trips share a day, so it names the trip for good.
    public var id: String { from }
    /// "Tuscany, Italy", or "Tuscany and Umbria, Italy" (`TripFinder`'s naming rule).
    public var name: String
    /// Its first and last days, "YYYY-MM-DD", in the photos' own local dates.
    public var from: String
    public var to: String
    /// Days from `from` to `to`, both counted.
    public var days: Int
    /// Every photo of its days, those without a location included, in the order they were taken.
    public var photos: [TripPhoto]
    /// Its countries, the most photographed first.
    public var countries: [String]
    /// Its way: the located photos in the order they were taken.
    public var route: [Coordinate]

    /// The route's length in kilometres (before any simplification).
    public var kilometres: Double {
        zip(route, route.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// The route as others may see it: no point within `margin` kilometres of home nor inside a fence, the
    /// line broken where such points were left out (each part of two points or more).
    public func shownRoute(home: Coordinate, margin: Double = 1, fences: [Geofence] = []) -> [[Coordinate]] {
        var parts: [[Coordinate]] = [[]]
        for point in route {
            if point.distance(to: home) <= margin || fences.contains(where: { $0.contains(point) }) {
                if !(parts.last?.isEmpty ?? true) { parts.append([]) }
            } else {
                parts[parts.count - 1].append(point)
            }
        }
        return parts.filter { $0.count >= 2 }
    }
}

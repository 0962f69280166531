// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

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
    /// Its located photos' way: their coordinates in the order they were taken.
    public var route: [Coordinate]
    /// The GPX track lines recorded on its days (`TripRoutes`), whole; none when it has none.
    public var tracks: [TripTrack] = []

    /// Its way: its track lines where it has them, else its located photos' way.
    public var way: [[Coordinate]] { tracks.isEmpty ? [route] : tracks.map(\.line) }

    /// The way of one of its days ("YYYY-MM-DD"): the track lines begun that day where the trip has
    /// tracks, else that day's located photos in the order they were taken.
    public func way(on date: String) -> [[Coordinate]] {
        guard tracks.isEmpty else { return tracks.filter { $0.date == date }.map(\.line) }
        return [photos.filter { $0.date == date }.compactMap(\.coordinate)]
    }

    /// The way's length in kilometres (before any simplification).
    public var kilometres: Double {
        way.reduce(0) { total, line in
            zip(line, line.dropFirst()).reduce(total) { $0 + $1.0.distance(to: $1.1) }
        }
    }

    /// The way as others may see it: cut where it comes within `margin` kilometres of home or into a fence
    /// (or its margin, `Geofence.cut`), each part of two points or more.
    public func shownRoute(home: Coordinate, margin: Double = 1, fences: [Geofence] = []) -> [[Coordinate]] {
        Self.screens(home: home, margin: margin, fences: fences).cut(way)
    }

    /// `lines` as pages draw them for others: cut as `shownRoute` cuts, simplified as tracks are
    /// (`TrackLines.drawing`) and cut again once simplified; nil when nothing of them is left to draw.
    public static func drawing(
        _ lines: [[Coordinate]], home: Coordinate, margin: Double = 1, fences: [Geofence] = []
    ) -> TrackDrawing? {
        let screens = screens(home: home, margin: margin, fences: fences)
        let parts = screens.cut(lines)
        return TrackLines(parts, cutBy: screens).drawing(around: parts.flatMap { $0 })
    }

    /// What the way is cut by: `fences`, and a circle around home whose cut (`Geofence.trackRadius`, the
    /// radius with the fence margin and a metre) lies `margin` kilometres from home.
    static func screens(home: Coordinate, margin: Double, fences: [Geofence]) -> [Geofence] {
        let radius = max(margin * 1000 - Geofence.trackMargin - 1, 0)
        return fences + [Geofence(name: "home", centre: home, radius: radius)]
    }

    /// The way as pages draw it for others (`drawing(_:home:margin:fences:)`).
    public func drawing(home: Coordinate, margin: Double = 1, fences: [Geofence] = []) -> TrackDrawing? {
        Self.drawing(way, home: home, margin: margin, fences: fences)
    }
}

/// A GPX track line of a trip and the local date it was begun on (`TripRoutes`).
public struct TripTrack: Sendable, Hashable {
    /// "YYYY-MM-DD".
    public var date: String
    /// Its points, whole.
    public var line: [Coordinate]
}

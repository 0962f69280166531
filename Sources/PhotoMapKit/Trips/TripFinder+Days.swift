// SPDX-License-Identifier: Apache-2.0
import Foundation

extension TripFinder {
    /// Kilometres kept clear of a box's bounds for rounding: a box nearer the away distance than this
    /// is decided by its photos.
    static let slack = 0.001

    /// The trips `trips(_:)` finds in the photos of `days` (the catalog's rows, as the viewer sees them),
    /// newest first, reading with `photos` only the photos of the days a box leaves in doubt (one lying
    /// across the away distance) and those of the trips.
    public func trips(_ days: [TripDay], photos: ([ClosedRange<String>]) throws -> [TripPhoto]) throws -> [Trip] {
        var byDay: [Int: [TripDay]] = [:]
        for row in days { byDay[row.day, default: []].append(row) }
        let sorted = byDay.keys.sorted()
        var known: [Int: DayKind] = [:]
        for day in sorted { known[day] = kind(of: byDay[day] ?? []) }
        let doubtful = sorted.filter { known[$0] == nil }
        let read = try Self.byDay(photos(doubtful.compactMap { Self.span(byDay[$0] ?? []) }))
        let kinds = sorted.map { day in (day, known[day] ?? kind(of: read[day] ?? [])) }
        let runs = runs(kinds)
        let spans = runs.compactMap { run in Self.span((run.first...run.last).flatMap { byDay[$0] ?? [] }) }
        let photosByDay = try Self.byDay(photos(spans))
        return runs.map { trip($0, photosByDay) }.reversed()
    }

    /// Rule 3 from a day's rows; nil when a box lies across the away distance and its photos must tell.
    func kind(of rows: [TripDay]) -> DayKind? {
        var located = false, doubt = false
        for row in rows {
            guard row.located > 0, let box = row.box else { continue }
            located = true
            let country = row.names?.country
            guard home.country == nil || country == nil || country == home.country else { continue }
            let distances = box.distances(from: home.coordinate)
            if distances.upperBound + Self.slack <= awayKilometres { return .home }
            if distances.lowerBound - Self.slack <= awayKilometres { doubt = true }
        }
        if doubt { return nil }
        return located ? .away : .empty
    }

    /// The dates of `rows`, first to last by their text (a photo's day is read from the same text).
    private static func span(_ rows: [TripDay]) -> ClosedRange<String>? {
        guard let first = rows.map(\.text).min(), let last = rows.map(\.text).max() else { return nil }
        return first...last
    }

    private static func byDay(_ photos: [TripPhoto]) -> [Int: [TripPhoto]] {
        var byDay: [Int: [TripPhoto]] = [:]
        for photo in photos { byDay[photo.day, default: []].append(photo) }
        return byDay
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Finds trips in imported photos by time and place. The rule, in order:
///
/// 1. A photo's day is its own local date: the date of its time taken as the camera's clock wrote it
///    (the zone or offset it was taken in), never converted to another zone — a photo at 00:30 in
///    Tokyo belongs to that Tokyo day. Photos without a time taken belong to no day.
/// 2. A located photo is *near home* when it lies within `awayKilometres` of home (the edge counts as
///    near) and in home's country (a photo or home of unknown country: the distance alone decides).
/// 3. A day with any located photo near home is a *home day*; a day with located photos, none near home,
///    is an *away day*; a day with no located photo (none at all, or only photos without a location) is
///    an *empty day*.
/// 4. A trip is a run of away days in which at most `gapDays` empty days in a row lie between two away
///    days; a home day always ends it. A trip begins and ends on an away day.
/// 5. A trip's photos are every photo of its days, from its first to its last, located or not.
/// 6. Its name is its most photographed division with its country ("Tuscany, Italy"), or the two most
///    photographed when the second has at least `pairShare` (80 %) of the first's photos: "Tuscany and
///    Umbria, Italy", or "Carinthia, Austria and Upper Carniola, Slovenia" across a border. Ties go to
///    the name first in alphabetical order. A photo in no division counts for its country alone ("Malta");
///    photos in no country (at sea) do not count; a trip with none that count is named "Trip".
/// 7. Its route is its located photos in the order they were taken (by local time, then id); its
///    kilometres the length of that line.
///
/// The trips come newest first.
public struct TripFinder: Sendable {
    /// Where trips start from.
    public var home: Home
    /// How far from home a day must be, all of it, to be away.
    public var awayKilometres: Double
    /// How many empty days in a row a trip may hold between two away days.
    public var gapDays: Int
    /// The share of the first place's photos the second must have to be named too.
    public static let pairShare = 0.8

    /// A finder of trips from `home`.
    public init(home: Home, awayKilometres: Double = 50, gapDays: Int = 2) {
        self.home = home
        self.awayKilometres = awayKilometres
        self.gapDays = gapDays
    }

    /// What a day is, by rule 3.
    enum DayKind { case home, away, empty }

    /// The trips among `photos`, newest first.
    public func trips(_ photos: [TripPhoto]) -> [Trip] {
        var byDay: [Int: [TripPhoto]] = [:]
        for photo in photos { byDay[photo.day, default: []].append(photo) }
        let kinds = byDay.keys.sorted().map { day in (day, kind(of: byDay[day] ?? [])) }
        return runs(kinds).map { trip($0, byDay) }.reversed()
    }

    /// Rule 4: the runs of away days among the days' kinds (in the order of the days), oldest first.
    func runs(_ kinds: [(day: Int, kind: DayKind)]) -> [(first: Int, last: Int)] {
        var runs: [(first: Int, last: Int)] = []
        var run: (first: Int, last: Int)?
        for (day, kind) in kinds {
            switch kind {
            case .empty: continue
            case .home:
                if let open = run { runs.append(open) }
                run = nil
            case .away:
                if let open = run, day - open.last - 1 <= gapDays {
                    run = (open.first, day)
                } else {
                    if let open = run { runs.append(open) }
                    run = (day, day)
                }
            }
        }
        if let open = run { runs.append(open) }
        return runs
    }

    /// Rule 3 for one day's photos.
    func kind(of photos: [TripPhoto]) -> DayKind {
        var located = false
        for photo in photos {
            guard let point = photo.coordinate else { continue }
            located = true
            let sameCountry = home.country == nil || photo.country == nil || photo.country == home.country
            if sameCountry && point.distance(to: home.coordinate) <= awayKilometres { return .home }
        }
        return located ? .away : .empty
    }

    /// The trip of the days `first` to `last`.
    func trip(_ run: (first: Int, last: Int), _ byDay: [Int: [TripPhoto]]) -> Trip {
        let photos = (run.first...run.last).flatMap { byDay[$0] ?? [] }.sorted { ($0.taken, $0.id) < ($1.taken, $1.id) }
        let located = photos.filter { $0.coordinate != nil }
        return Trip(
            name: Self.name(of: located), from: photos.first?.date ?? "", to: photos.last?.date ?? "",
            days: run.last - run.first + 1, photos: photos, countries: Self.ranked(located.compactMap(\.country)),
            route: located.compactMap(\.coordinate))
    }

    /// Rule 6.
    static func name(of photos: [TripPhoto]) -> String {
        var counts: [String: (division: String?, country: String, photos: Int)] = [:]
        for photo in photos {
            guard let country = photo.country else { continue }
            let key = [photo.division, country].compactMap { $0 }.joined(separator: ", ")
            counts[key, default: (photo.division, country, 0)].photos += 1
        }
        let ranked = counts.sorted { ($1.value.photos, $0.key) < ($0.value.photos, $1.key) }
        guard let first = ranked.first else { return "Trip" }
        guard ranked.count > 1, Double(ranked[1].value.photos) >= pairShare * Double(first.value.photos) else {
            return first.key
        }
        let second = ranked[1]
        if let one = first.value.division, let other = second.value.division,
            first.value.country == second.value.country
        {
            return "\(one) and \(other), \(first.value.country)"
        }
        return "\(first.key) and \(second.key)"
    }

    /// Distinct names, the most frequent first, ties in alphabetical order.
    static func ranked(_ names: [String]) -> [String] {
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }
}

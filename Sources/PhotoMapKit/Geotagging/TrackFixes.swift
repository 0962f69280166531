// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The fixes of all tracks, segments and files in one time order, and where they put a moment, by
/// exiftool's `-geotag` rules: between two fixes at most `maximumGap` seconds apart, the point between
/// them in proportion (a break between segments does not stop it by itself); otherwise the nearest fix
/// if it is at most `maximumGap` away; else nowhere.
public struct TrackFixes: Sendable {
    /// exiftool's default for both GeoMaxIntSecs and GeoMaxExtSecs: 30 minutes.
    public static let defaultMaximumGap = 1800.0

    /// Fix times, ascending and distinct.
    public let times: [Double]
    private let latitudes: [Double]
    private let longitudes: [Double]

    /// The fixes sorted by time; of fixes at one time the last read is kept (exiftool keys fixes by time).
    public init(_ fixes: [TrackFix]) {
        let ordered = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        var distinct: [TrackFix] = []
        distinct.reserveCapacity(ordered.count)
        for fix in ordered {
            if distinct.last?.time == fix.time { distinct.removeLast() }
            distinct.append(fix)
        }
        times = distinct.map(\.time)
        latitudes = distinct.map(\.latitude)
        longitudes = distinct.map(\.longitude)
    }

    /// How many distinct fixes there are.
    public var count: Int { times.count }

    /// Where the track puts the moment `time` (seconds since 1970, UTC), or nil.
    public func location(at time: Double, maximumGap: Double = defaultMaximumGap) -> Coordinate? {
        guard let first = times.first, let last = times.last else { return nil }
        if time < first { return first - time <= maximumGap ? fix(0) : nil }
        if time > last { return time - last <= maximumGap ? fix(times.count - 1) : nil }
        // The two fixes around it: times[low] <= time < times[high] (or time is the last fix's).
        var low = 0
        var high = times.count - 1
        while high > low + 1 {
            let middle = (low + high) / 2
            if time < times[middle] { high = middle } else { low = middle }
        }
        let (before, after) = (times[low], times[high])
        if after - before > maximumGap {
            let nearest = time - before < after - time ? low : high
            return abs(time - times[nearest]) <= maximumGap ? fix(nearest) : nil
        }
        let fraction = after == before ? 0 : (time - before) / (after - before)
        var from = longitudes[low]
        var to = longitudes[high]
        // Across the antimeridian the short way round, as exiftool interpolates longitudes.
        if abs(to - from) > 180 {
            if from < to { from += 360 } else { to += 360 }
        }
        var longitude = to * fraction + from * (1 - fraction)
        if longitude >= 180 { longitude -= 360 }
        return Coordinate(
            latitude: latitudes[high] * fraction + latitudes[low] * (1 - fraction), longitude: longitude)
    }

    private func fix(_ index: Int) -> Coordinate? {
        Coordinate(latitude: latitudes[index], longitude: longitudes[index])
    }
}

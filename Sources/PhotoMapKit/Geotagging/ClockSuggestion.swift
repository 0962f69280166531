// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a wrong zone or camera clock most likely is, when tracks miss photos by their time: the shift in
/// whole hours (as nearly all zones differ; up to a day and more each way) that would locate more of the
/// photos without GPS than the zone and clock offset given do.
public struct ClockSuggestion: Sendable, Equatable {
    /// Seconds to add to the photos' times: `--clock-offset` this much more.
    public let shift: Double
    /// How many of the photos tried the shift would locate.
    public let located: Int
    /// How many of the photos tried are located as they are.
    public let locatedNow: Int
    /// How many photos were tried.
    public let tried: Int
    /// The zone, in seconds east of UTC, that would give the photos without OffsetTimeOriginal that
    /// shift (what to give `--timezone`); nil when most have an offset of their own.
    public let zoneOffset: Int?

    /// The shifts tried: every hour from 26 back to 26 ahead (zones span 26 hours), and none. Quarter
    /// hours would fit a photo or two more at a track's ends and name a zone no one is in.
    static let shifts = (-26...26).map { Double($0 * 3600) }
    /// At most about this many photos are tried, spread over them all, so that a large catalog stays quick.
    static let sample = 1_000

    /// The shift that locates the most of the photos taken at `times` (with their clocks, in the order of
    /// their ids), where `geotagger` would place them; nil when none locates more than no shift does.
    init?(for photos: [(time: Double, clock: PhotoClock?)], by geotagger: PhotoGeotagger) {
        guard !photos.isEmpty else { return nil }
        let step = max(1, photos.count / Self.sample)
        let tried = stride(from: 0, to: photos.count, by: step).map { photos[$0] }
        // How many a shift locates, and how far in all they are from their nearest fixes.
        func locating(_ shift: Double) -> (located: Int, apart: Double) {
            var located = 0
            var apart = 0.0
            for photo in tried
            where geotagger.tracks.fixes.location(at: photo.time + shift, maximumGap: geotagger.maximumGap) != nil {
                located += 1
                apart += Self.nearestFix(to: photo.time + shift, in: geotagger.tracks.fixes.times)
            }
            return (located, apart)
        }
        let now = locating(0).located
        var best = (shift: 0.0, located: now, apart: Double.infinity)
        for shift in Self.shifts where shift != 0 {
            let (located, apart) = locating(shift)
            // Of shifts locating as many, the one that puts the photos nearest the fixes (photos are taken
            // while the receiver records, not beside the track's ends); then the smallest.
            if (located, -apart, -abs(shift)) > (best.located, -best.apart, -abs(best.shift)) {
                best = (shift, located, apart)
            }
        }
        guard best.located > now else { return nil }
        shift = best.shift
        located = best.located
        locatedNow = now
        self.tried = tried.count
        let zoned = tried.filter { $0.clock?.utcOffsetSeconds == nil }
        if zoned.count * 2 >= tried.count, let first = zoned.first {
            let before = geotagger.zone.secondsFromGMT(for: Date(timeIntervalSince1970: first.time))
            zoneOffset = before - Int(best.shift)
        } else {
            zoneOffset = nil
        }
    }

    /// Seconds from `time` to the nearest of `times` (ascending, not empty).
    static func nearestFix(to time: Double, in times: [Double]) -> Double {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return [low - 1, low].filter { times.indices.contains($0) }.map { abs(times[$0] - time) }.min() ?? 0
    }

    /// "+02:00", "-03:30": a zone offset as `--timezone` takes it.
    public static func zoneName(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        let rest = minutes % 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}

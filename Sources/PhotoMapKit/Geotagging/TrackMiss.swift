// SPDX-License-Identifier: Apache-2.0
/// Why the tracks leave a photo without a location, as `exiftool -v -geotag` says of each photo it skips.
public enum TrackMiss: Sendable, Equatable {
    /// The photo has no DateTimeOriginal (or was imported before clocks were kept).
    case noClock
    /// The tracks hold no fix with a time.
    case noFixes
    /// Taken this many seconds before the first fix, more than the maximum gap.
    case beforeFirstFix(Double)
    /// Taken this many seconds after the last fix, more than the maximum gap.
    case afterLastFix(Double)
    /// Taken between two fixes this many seconds apart (more than the maximum gap), far from both.
    case inGap(Double)

    /// Why `fixes` place nothing at `time` (nil for a photo without a clock), given that they place nothing.
    static func of(_ time: Double?, in fixes: TrackFixes) -> TrackMiss {
        guard let time else { return .noClock }
        guard let first = fixes.times.first, let last = fixes.times.last else { return .noFixes }
        if time < first { return .beforeFirstFix(first - time) }
        if time > last { return .afterLastFix(time - last) }
        // The first fix after the time; the one before it bounds the gap.
        var low = 0
        var high = fixes.times.count - 1
        while low < high {
            let middle = (low + high) / 2
            if fixes.times[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return .inGap(fixes.times[low] - fixes.times[max(low - 1, 0)])
    }

    /// Whether another clock (zone or offset) could place the photo: it has a time, the tracks have fixes.
    var isTiming: Bool {
        switch self {
        case .noClock, .noFixes: return false
        case .beforeFirstFix, .afterLastFix, .inGap: return true
        }
    }

    /// "taken 5 h 02 min before the first fix", as `--report` says it of one photo.
    public var reason: String {
        switch self {
        case .noClock: return "no time taken (DateTimeOriginal) to match to a track"
        case .noFixes: return "the tracks have no fix with a time"
        case .beforeFirstFix(let seconds): return "taken \(Self.duration(seconds)) before the first fix"
        case .afterLastFix(let seconds): return "taken \(Self.duration(seconds)) after the last fix"
        case .inGap(let seconds):
            return "in a gap of \(Self.duration(seconds)) between fixes, longer than --max-gap"
        }
    }

    /// "5 h 02 min", "12 min", "40 s", "3 d 4 h": a span of time as a summary gives it.
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.magnitude.rounded())
        if whole < 60 { return "\(whole) s" }
        let minutes = (whole + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 {
            let rest = minutes % 60
            return "\(minutes / 60) h " + (rest < 10 ? "0" : "") + "\(rest) min"
        }
        let hours = (minutes + 30) / 60
        return "\(hours / 24) d \(hours % 24) h"
    }
}

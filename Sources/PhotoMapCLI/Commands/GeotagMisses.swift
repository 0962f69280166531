// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit
import PhotoMapSupport

/// What `geotag` says of the photos its tracks left without a location, as `exiftool -v -geotag` says it of
/// each: how many for each reason, and the zone or clock offset that would most likely place them.
enum GeotagMisses {
    /// "12 taken 5 h 02 min before the first fix; 3 in a gap longer than --max-gap — is the camera's zone
    /// +02:00? see --timezone, --clock-offset", then "2 without a time taken …": the lines for the photos
    /// the tracks missed, none when they missed none.
    static func lines(_ report: PhotoGeotagger.Report) -> [String] {
        var before: [Double] = []
        var after: [Double] = []
        var gaps = 0
        var clockless = 0
        for (_, miss) in report.missed {
            switch miss {
            case .beforeFirstFix(let seconds): before.append(seconds)
            case .afterLastFix(let seconds): after.append(seconds)
            case .inGap: gaps += 1
            case .noClock: clockless += 1
            case .noFixes: break
            }
        }
        var timed: [String] = []
        for (spans, side) in [(before, "before the first fix"), (after, "after the last fix")] {
            guard let low = spans.min(), let high = spans.max() else { continue }
            let (near, far) = (TrackMiss.duration(low), TrackMiss.duration(high))
            timed.append("\(Quantity.grouped(spans.count)) taken \(near == far ? near : "\(near) to \(far)") \(side)")
        }
        if gaps > 0 { timed.append("\(Quantity.grouped(gaps)) in a gap longer than --max-gap") }
        var lines = timed.isEmpty ? [] : [timed.joined(separator: "; ") + " — " + advice(report.suggestion)]
        if clockless > 0 {
            lines.append(
                "\(Quantity.grouped(clockless)) without a time taken (DateTimeOriginal): no track can place it")
        }
        return lines
    }

    /// The likely fix for photos missed by their time.
    static func advice(_ suggestion: ClockSuggestion?) -> String {
        guard let suggestion else { return "see --timezone, --clock-offset, --max-gap" }
        if let zone = suggestion.zoneOffset {
            return "is the camera's zone \(ClockSuggestion.zoneName(zone))? see --timezone, --clock-offset"
        }
        let side = suggestion.shift > 0 ? "behind" : "ahead"
        return "is the camera's clock \(TrackMiss.duration(suggestion.shift)) \(side)? "
            + "add \(Int(suggestion.shift)) to --clock-offset"
    }
}

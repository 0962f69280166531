// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// How photos meet GPX tracks: the options `import --gpx` and `geotag` share, with exiftool `-geotag`'s
/// defaults.
enum TrackOptions {
    static let gpx = Option<String>.files(
        "gpx", "FILE",
        "GPX tracks locating photos without GPS by their time: FILE, and the words after it ending in .gpx "
            + "(a shell glob such as ~/tracks/*.gpx); repeatable",
        moreEnding: ".gpx")
    static let timezone = Option<String>.text(
        "timezone", "ZONE",
        "±HH:MM or a zone name (Europe/Ljubljana) for photos without OffsetTimeOriginal (default: TZ, this machine's)")
    static let clockOffset = Option<Double>.number(
        "clock-offset", "SECONDS", -31_622_400...31_622_400,
        "seconds added to every photo's time: the camera clock's error (exiftool's -geosync)", default: "0")
    static let maxGap = Option<Int>.integer(
        "max-gap", "SECONDS", 0...31_622_400,
        "the longest gap between fixes bridged, and the farthest a photo may be from the nearest fix",
        default: "1800")
    static let estimateWithin = Option<Int>.integer(
        "estimate-within", "MINUTES", 1...1440,
        "give a photo still without a location that of the same camera's photo nearest in time, if this close")
    /// All of them, in `--help`'s order.
    static let all = [gpx.spec, timezone.spec, clockOffset.spec, maxGap.spec, estimateWithin.spec]

    /// What the options ask of the meeting of photos and tracks, decoded once.
    struct Values: Sendable {
        /// The GPX files of `--gpx`, in order (a command may add its own arguments).
        var gpxFiles: [String]
        /// The zone of photos without an offset, when not this machine's (`--timezone`).
        var zoneName: String?
        var clockOffset: Double
        var maximumGap: Int
        /// `--estimate-within`, in minutes.
        var estimateWithin: Int?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            gpxFiles = try parsed.all(TrackOptions.gpx)
            zoneName = try parsed.value(TrackOptions.timezone)
            clockOffset = try parsed.value(TrackOptions.clockOffset) ?? 0
            maximumGap = try parsed.value(TrackOptions.maxGap) ?? Int(TrackFixes.defaultMaximumGap)
            estimateWithin = try parsed.value(TrackOptions.estimateWithin)
        }

        /// The geotagger the options ask for, over the tracks of `paths`, read whole now: a file that
        /// cannot be used stops the command before anything changes. Nil when neither tracks nor estimates
        /// are asked for.
        func geotagger(paths: [String]) throws -> PhotoGeotagger? {
            guard !paths.isEmpty || estimateWithin != nil else { return nil }
            var zone = TimeZone.current
            if let zoneName {
                guard let named = PhotoClock.zone(named: zoneName) else {
                    throw UsageError("--timezone \(zoneName): give ±HH:MM or a zone name such as Europe/Ljubljana")
                }
                zone = named
            }
            return PhotoGeotagger(
                tracks: try Tracks(reading: paths), zone: zone, clockOffset: clockOffset,
                maximumGap: Double(maximumGap), estimateWithin: estimateWithin.map { Double($0 * 60) })
        }
    }
}

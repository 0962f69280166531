import Foundation
import PhotoMapKit

/// How photos meet GPX tracks: the options `import --gpx` and `geotag` share, with exiftool `-geotag`'s
/// defaults.
enum TrackOptions {
    static let gpx = OptionSpec.value(
        "gpx", .file("FILE"), "a GPX track locating photos without GPS by their time (repeatable)")
    static let timezone = OptionSpec.value(
        "timezone", .text("ZONE"),
        "±HH:MM or a zone name (Europe/Ljubljana) for photos without OffsetTimeOriginal (default: TZ, this machine's)")
    static let clockOffset = OptionSpec.value(
        "clock-offset", .number("SECONDS", -31_622_400...31_622_400),
        "seconds added to every photo's time: the camera clock's error (exiftool's -geosync)", default: "0")
    static let maxGap = OptionSpec.value(
        "max-gap", .integer("SECONDS", 0...31_622_400),
        "the longest gap between fixes bridged, and the farthest a photo may be from the nearest fix",
        default: "1800")
    /// All of them, in `--help`'s order.
    static let all = [gpx, timezone, clockOffset, maxGap]

    /// The geotagger the options ask for, over the tracks of `paths`, read whole now: a file that
    /// cannot be used stops the command before anything changes.
    static func geotagger(_ parsed: ParsedArguments, paths: [String]) throws -> PhotoGeotagger {
        var zone = TimeZone.current
        if let name = parsed.text(timezone) {
            guard let named = PhotoClock.zone(named: name) else {
                throw UsageError("--timezone \(name): give ±HH:MM or a zone name such as Europe/Ljubljana")
            }
            zone = named
        }
        return PhotoGeotagger(
            tracks: try Tracks(reading: paths), zone: zone, clockOffset: parsed.number(clockOffset) ?? 0,
            maximumGap: Double(parsed.integer(maxGap) ?? Int(TrackFixes.defaultMaximumGap)))
    }
}

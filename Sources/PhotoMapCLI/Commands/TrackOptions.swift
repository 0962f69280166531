import Foundation
import PhotoMapKit

/// How photos meet GPX tracks: the options `import --gpx` and `geotag` share, with exiftool `-geotag`'s
/// defaults.
enum TrackOptions {
    static let gpx = OptionSpec.values(
        "gpx", .file("FILE"),
        "GPX tracks locating photos without GPS by their time: FILE, and the words after it ending in .gpx "
            + "(a shell glob such as ~/tracks/*.gpx); repeatable",
        moreEnding: ".gpx")
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
    static let estimateWithin = OptionSpec.value(
        "estimate-within", .integer("MINUTES", 1...1440),
        "give a photo still without a location that of the same camera's photo nearest in time, if this close")
    /// All of them, in `--help`'s order.
    static let all = [gpx, timezone, clockOffset, maxGap, estimateWithin]

    /// The geotagger the options ask for, over the tracks of `paths`, read whole now: a file that
    /// cannot be used stops the command before anything changes. Nil when neither tracks nor estimates
    /// are asked for.
    static func geotagger(_ parsed: ParsedArguments, paths: [String]) throws -> PhotoGeotagger? {
        guard !paths.isEmpty || parsed.has(estimateWithin.name) else { return nil }
        var zone = TimeZone.current
        if let name = parsed.text(timezone) {
            guard let named = PhotoClock.zone(named: name) else {
                throw UsageError("--timezone \(name): give ±HH:MM or a zone name such as Europe/Ljubljana")
            }
            zone = named
        }
        return PhotoGeotagger(
            tracks: try Tracks(reading: paths), zone: zone, clockOffset: parsed.number(clockOffset) ?? 0,
            maximumGap: Double(parsed.integer(maxGap) ?? Int(TrackFixes.defaultMaximumGap)),
            estimateWithin: parsed.integer(estimateWithin).map { Double($0 * 60) })
    }
}

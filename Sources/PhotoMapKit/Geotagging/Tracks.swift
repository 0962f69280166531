// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The GPX files given to one command, read whole before anything changes: their fixes in one time order,
/// how many tracks they hold, and the points left out of them.
public struct Tracks: Sendable {
    /// The fixes of every file, track and segment.
    public let fixes: TrackFixes
    /// `trk` elements across the files.
    public let trackCount: Int
    /// Each segment of each file as a line, for maps.
    public let lines: TrackLines
    /// The points left out: "FILE, line N", and why.
    public let skipped: [(place: String, reason: String)]

    /// Reads every file; throws `GeotagError` at the first that cannot be used.
    public init(reading paths: [String]) throws {
        var fixes: [TrackFix] = []
        var trackCount = 0
        var skipped: [(place: String, reason: String)] = []
        var lines: [[Coordinate]] = []
        var starts: [Double?] = []
        for path in paths {
            let file = try GPXReader.read(path: path)
            fixes += file.fixes
            lines += file.segments.map { $0.compactMap { Coordinate(latitude: $0.latitude, longitude: $0.longitude) } }
            starts += file.segments.map { $0.first?.time }
            trackCount += file.trackCount
            skipped += file.skipped.map { ("\(path), line \($0.line)", $0.reason) }
        }
        self.fixes = TrackFixes(fixes)
        self.trackCount = trackCount
        self.skipped = skipped
        self.lines = TrackLines(lines, starts: starts)
    }
}

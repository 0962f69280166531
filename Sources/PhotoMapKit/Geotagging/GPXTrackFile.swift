// SPDX-License-Identifier: Apache-2.0
/// What one GPX file gave: its track points with a position and a time, and the ones left out.
public struct GPXTrackFile: Sendable {
    /// The file's path, as given.
    public var path: String
    /// Its `trk` elements.
    public var trackCount = 0
    /// Every usable `trkpt` of every track and segment, in the file's order.
    public var fixes: [TrackFix] = []
    /// Where each `trkseg` starts in `fixes`: a map draws each segment as a line of its own.
    public var segmentStarts: [Int] = []
    /// The points left out: the line of each, and why.
    public var skipped: [(line: Int, reason: String)] = []

    /// Each segment's fixes, in the file's order (empty segments left out).
    public var segments: [ArraySlice<TrackFix>] {
        zip(segmentStarts, segmentStarts.dropFirst() + [fixes.count]).compactMap { start, end in
            end > start ? fixes[start..<end] : nil
        }
    }

    /// Nothing read yet from the file at `path`.
    public init(path: String) {
        self.path = path
    }
}

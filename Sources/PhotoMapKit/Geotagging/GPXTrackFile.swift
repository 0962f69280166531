/// What one GPX file gave: its track points with a position and a time, and the ones left out.
public struct GPXTrackFile: Sendable {
    /// The file's path, as given.
    public var path: String
    /// Its `trk` elements.
    public var trackCount = 0
    /// Every usable `trkpt` of every track and segment, in the file's order.
    public var fixes: [TrackFix] = []
    /// The points left out: the line of each, and why.
    public var skipped: [(line: Int, reason: String)] = []

    /// Nothing read yet from the file at `path`.
    public init(path: String) {
        self.path = path
    }
}

import Foundation

/// Locates the photos of the cache folder's catalog that have no GPS of their own from tracks, by their
/// clocks as the catalog keeps them: no image is read. A photo's own GPS is never replaced; one located
/// from a track before is located again when these tracks place it (another zone or clock offset).
public struct PhotoGeotagger: Sendable {
    /// The tracks.
    public var tracks: Tracks
    /// The zone of photos without OffsetTimeOriginal.
    public var zone: TimeZone
    /// Seconds added to every photo's time: the camera clock's error (exiftool's `-geosync`).
    public var clockOffset: Double
    /// exiftool's GeoMaxIntSecs and GeoMaxExtSecs both.
    public var maximumGap: Double

    /// A geotagger with exiftool's defaults but the zone.
    public init(
        tracks: Tracks, zone: TimeZone = .current, clockOffset: Double = 0,
        maximumGap: Double = TrackFixes.defaultMaximumGap
    ) {
        self.tracks = tracks
        self.zone = zone
        self.clockOffset = clockOffset
        self.maximumGap = maximumGap
    }

    /// What one run did.
    public struct Report: Sendable {
        /// Photos without a location before the run.
        public var unlocatedBefore = 0
        /// Their ids, of those now located from the tracks.
        public var located: Set<String> = []
        /// Photos located from a track before, and placed elsewhere now.
        public var relocated = 0
        /// Tracks read.
        public var trackCount = 0
        /// Track points left out, with where and why.
        public var skipped: [(place: String, reason: String)] = []
    }

    /// Locates the photos of `catalog`; `places` gives the place of a location.
    public func run(on catalog: LocalCatalog, places: () throws -> LocalPlaces) throws -> Report {
        var report = Report()
        report.trackCount = tracks.trackCount
        report.skipped = tracks.skipped
        var located: [(id: String, coordinate: Coordinate, place: LocalPlace)] = []
        var loadedPlaces: LocalPlaces?
        for candidate in try catalog.photosToLocate() {
            if candidate.fromTrack == nil { report.unlocatedBefore += 1 }
            // A photo the tracks put where it is already is left as it is (nothing to write or index again).
            guard let clock = candidate.clock, let time = clock.instant(zone: zone, clockOffset: clockOffset),
                let coordinate = tracks.fixes.location(at: time, maximumGap: maximumGap),
                coordinate != candidate.fromTrack
            else { continue }
            if loadedPlaces == nil { loadedPlaces = try places() }
            located.append((candidate.id, coordinate, loadedPlaces?.place(for: coordinate) ?? .unlocated))
            if candidate.fromTrack == nil { report.located.insert(candidate.id) } else { report.relocated += 1 }
        }
        try catalog.locate(fromTracks: located)
        return report
    }
}

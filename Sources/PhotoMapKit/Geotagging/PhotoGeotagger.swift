// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Locates the imported photos that have no GPS of their own from tracks, by their clocks as the catalog
/// (SQLite or PostgreSQL, the same rules for both) keeps them: no image is read. A photo's own GPS, a location
/// set by hand and a sidecar's are never replaced (`LocationSource.stands`); one located
/// from a track or estimated before moves when these tracks place it elsewhere, and one these tracks placed
/// before (under another zone or clock offset) and no longer reach loses its location. With `estimateWithin`, a
/// photo still without a location then takes that of the photo from the same camera (Make and Model)
/// nearest in time with a location of its own or from a track, if that close; never from an estimate.
public struct PhotoGeotagger: Sendable {
    /// The tracks.
    public var tracks: Tracks
    /// The zone of photos without OffsetTimeOriginal.
    public var zone: TimeZone
    /// Seconds added to every photo's time: the camera clock's error (exiftool's `-geosync`).
    public var clockOffset: Double
    /// exiftool's GeoMaxIntSecs and GeoMaxExtSecs both.
    public var maximumGap: Double
    /// How far apart in seconds a photo and the neighbour it is estimated from may be; nil for no estimates.
    public var estimateWithin: Double?

    /// A geotagger with exiftool's defaults but the zone, and no estimates.
    public init(
        tracks: Tracks, zone: TimeZone = .current, clockOffset: Double = 0,
        maximumGap: Double = TrackFixes.defaultMaximumGap, estimateWithin: Double? = nil
    ) {
        self.tracks = tracks
        self.zone = zone
        self.clockOffset = clockOffset
        self.maximumGap = maximumGap
        self.estimateWithin = estimateWithin
    }

    /// What one run did.
    public struct Report: Sendable {
        /// Photos without a location before the run.
        public var unlocatedBefore = 0
        /// Their ids, of those now located from the tracks.
        public var located: Set<String> = []
        /// Their ids, of those now estimated from a neighbour.
        public var estimated: Set<String> = []
        /// Photos located from a track or estimated before, and placed elsewhere now.
        public var relocated = 0
        /// Photos these tracks placed before (under other settings) that they no longer reach: now without.
        public var cleared = 0
        /// The photos without GPS the tracks leave without a location, by id, and why (none without fixes).
        public var missed: [(id: String, miss: TrackMiss)] = []
        /// The clock shift that would locate more of the photos without GPS, when some were missed by time.
        public var suggestion: ClockSuggestion?
        /// Tracks read.
        public var trackCount = 0
        /// Track points left out, with where and why.
        public var skipped: [(place: String, reason: String)] = []
        /// The records of the photos located, moved or estimated, as the catalog now holds them.
        public var changedPhotos: [Photo] = []
    }

    /// Locates the photos of `catalog`; `places` gives the place of a location.
    public func run(on catalog: any LocalCatalogStore, places: () throws -> LocalPlaces) throws -> Report {
        var report = Report()
        report.trackCount = tracks.trackCount
        report.skipped = tracks.skipped
        let photos = try catalog.clockedPhotos()
        let times = photos.map { $0.clock?.instant(zone: zone, clockOffset: clockOffset) }
        // Where each photo ends up: its own GPS stays; the tracks place the others they reach.
        var outcome = photos.map { Outcome(coordinate: $0.coordinate, source: $0.source) }
        var placement: TrackPlacement?
        for (index, photo) in photos.enumerated() where photo.source?.stands != true {
            if photo.coordinate == nil { report.unlocatedBefore += 1 }
            if let time = times[index], let coordinate = tracks.fixes.location(at: time, maximumGap: maximumGap) {
                outcome[index] = Outcome(coordinate: coordinate, source: .track)
            } else if photo.source == .track, let coordinate = photo.coordinate {
                // Placed by these tracks under other settings: for these, exiftool's answer is none.
                if placement == nil { placement = TrackPlacement(tracks.fixes, maximumGap: maximumGap) }
                if placement?.contains(coordinate) == true { outcome[index] = Outcome(coordinate: nil, source: nil) }
            }
        }
        if let estimateWithin { estimate(photos, times: times, outcome: &outcome, within: estimateWithin) }
        if tracks.fixes.count > 0 {
            let unplaced = photos.indices.filter { photos[$0].source?.stands != true && outcome[$0].coordinate == nil }
            report.missed = unplaced.map { (photos[$0].id, TrackMiss.of(times[$0], in: tracks.fixes)) }
            if report.missed.contains(where: { $0.miss.isTiming }) {
                report.suggestion = ClockSuggestion(
                    for: photos.indices.filter { photos[$0].source?.stands != true }.compactMap { index in
                        times[index].map { ($0, photos[index].clock) }
                    }, by: self)
            }
        }
        // The places are named in a function of their own, so their data (about 45 MB) is freed before
        // the catalog writes the photos and reads them back.
        let changed = try placed(photos, outcome: outcome, report: &report, places: places)
        report.changedPhotos = try catalog.locate(changed)
        try catalog.keep(tracks.lines)
        return report
    }

    /// The photos whose location or source changes, each with its place; counts them in `report`.
    private func placed(
        _ photos: [ClockedPhoto], outcome: [Outcome], report: inout Report, places: () throws -> LocalPlaces
    ) throws -> [LocatedPhoto] {
        var changed: [LocatedPhoto] = []
        var loadedPlaces: LocalPlaces?
        for (index, photo) in photos.enumerated() {
            // A photo put where it is already is left as it is (nothing to write or index again); an
            // estimate from another photo at the same spot keeps its note of the first.
            let (coordinate, source) = (outcome[index].coordinate, outcome[index].source)
            guard coordinate != photo.coordinate || source != photo.source else { continue }
            var place = LocalPlace.unlocated
            if let coordinate {
                if loadedPlaces == nil { loadedPlaces = try places() }
                place = loadedPlaces?.place(for: coordinate) ?? .unlocated
            }
            changed.append(
                LocatedPhoto(
                    id: photo.id, coordinate: coordinate, place: place, source: source,
                    estimateOffset: outcome[index].estimateOffset))
            if coordinate == nil {
                report.cleared += 1
            } else if photo.coordinate != nil {
                report.relocated += 1
            } else if source == .track {
                report.located.insert(photo.id)
            } else {
                report.estimated.insert(photo.id)
            }
        }
        return changed
    }

    /// Where a photo ends up, and for an estimate, the seconds to the photo it was taken from.
    private struct Outcome {
        var coordinate: Coordinate?
        var source: LocationSource?
        var estimateOffset: Int? = nil
    }

    /// Gives each photo without a location (or with an estimate) that of the photo from the same camera
    /// nearest in time with a location of its own or from a track, within `within` seconds.
    private func estimate(
        _ photos: [ClockedPhoto], times: [Double?], outcome: inout [Outcome], within: Double
    ) {
        // Per camera, the photos an estimate may come from, in time order.
        var anchors: [String: [(time: Double, index: Int)]] = [:]
        for (index, photo) in photos.enumerated() {
            guard let camera = photo.camera, let time = times[index], outcome[index].coordinate != nil,
                outcome[index].source?.stands == true || outcome[index].source == .track
            else { continue }
            anchors[camera, default: []].append((time, index))
        }
        for camera in anchors.keys { anchors[camera]?.sort { ($0.time, $0.index) < ($1.time, $1.index) } }
        for (index, photo) in photos.enumerated()
        where outcome[index].coordinate == nil || outcome[index].source == .estimated {
            guard let camera = photo.camera, let time = times[index], let sorted = anchors[camera] else { continue }
            // The first anchor at or after the photo's time, and the one before it.
            var low = 0
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].time < time { low = middle + 1 } else { high = middle }
            }
            let nearest = [low - 1, low].filter { sorted.indices.contains($0) }
                .min { abs(sorted[$0].time - time) < abs(sorted[$1].time - time) }
            guard let nearest, abs(sorted[nearest].time - time) <= within else { continue }
            outcome[index] = Outcome(
                coordinate: outcome[sorted[nearest].index].coordinate, source: .estimated,
                estimateOffset: Int((sorted[nearest].time - time).rounded()))
        }
    }
}

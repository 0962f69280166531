// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import PhotoMapSupport

/// What an import did: the counts its summary line gives, and a line for every file skipped or imported
/// without a field (`import --report`).
public struct ImportReport: Sendable {
    /// Image files considered (JPEG or HEIC by their bytes), read now or unchanged since last time.
    public var photos = 0
    /// Of those, the ones with a location.
    public var located = 0
    /// The ones without a location (listed under "Without a location").
    public var unlocated = 0
    /// The ones that could not be read (truncated, corrupt, too large).
    public var unreadable = 0
    /// The ones not read again, being as they were at the last import.
    public var unchanged = 0
    /// Files that are no JPEG or HEIC, skipped.
    public var otherFiles = 0
    /// Files below the folders gone from disk since the last import.
    public var gone = 0
    /// Of those, the ones whose photos stay (no `--prune`).
    public var goneKept = 0
    /// Photos dropped from the catalog (their files gone, with `--prune`, or changed).
    public var removedPhotos = 0
    /// The photos the import may have dropped: those of the files gone (with `--prune`) and of the files
    /// read again, as the catalog held them before. The search index drops those the catalog no longer holds.
    public var photosMayBeGone: Set<String> = []
    /// Of the located, the ones located from tracks.
    public var locatedFromTracks = 0
    /// Of the located, the ones estimated from a neighbour.
    public var locatedEstimated = 0
    /// Tracks read (`--gpx`); nil when photos were not geotagged.
    public var trackCount: Int?
    /// Whether estimates from neighbours were asked for (`--estimate-within`).
    public var estimating = false
    /// Track points left out of them.
    public var skippedTrackPoints = 0
    /// The photos without a location, with how many files hold each: the ones a track then locates move
    /// to `located`.
    var unlocatedFiles: [String: Int] = [:]
    /// One line per file skipped or imported without a field: its path as shown, and why.
    public var lines: [(path: String, reason: String)] = []
    /// The records of the photos tracks located, moved or estimated, as the catalog now holds them.
    public var changedPhotos: [Photo] = []
    /// The records of the photos read or located from sidecars, as written, in order (a photo may come
    /// again, its last record the one held).
    public var writtenPhotos: [Photo] = []

    /// Each photo the import wrote, once, as the catalog now holds it: what the search index takes.
    public var photosWritten: [Photo] {
        var latest: [String: Photo] = [:]
        for photo in writtenPhotos + changedPhotos { latest[photo.id] = photo }
        return latest.values.sorted { $0.id < $1.id }
    }

    /// The summary line: "1,942 photos read, 1,870 located, 64 without a location, 8 not readable" (the
    /// counts after the first three only when not 0); with tracks, "1,870 located (12 from their own GPS,
    /// 1,858 from 3 tracks)".
    public var summary: String {
        var locatedPart = "\(Quantity.grouped(located)) located"
        if let trackCount {
            locatedPart +=
                " (\(Quantity.grouped(located - locatedFromTracks - locatedEstimated)) from their own GPS, "
                + "\(Quantity.grouped(locatedFromTracks)) from \(Quantity.groupedWords(trackCount, "track", "tracks"))"
                + (estimating ? ", \(Quantity.grouped(locatedEstimated)) estimated from neighbours)" : ")")
        }
        var parts = [
            "\(Quantity.groupedWords(photos, "photo", "photos")) read", locatedPart,
            "\(Quantity.grouped(unlocated)) without a location",
        ]
        if unreadable > 0 { parts.append("\(Quantity.grouped(unreadable)) not readable") }
        if unchanged > 0 { parts.append("\(Quantity.grouped(unchanged)) unchanged") }
        if otherFiles > 0 { parts.append("\(Quantity.groupedWords(otherFiles, "other file", "other files")) skipped") }
        if gone > 0 {
            parts.append("\(Quantity.grouped(gone)) gone" + (goneKept > 0 ? " (kept: --prune drops them)" : ""))
        }
        if skippedTrackPoints > 0 {
            parts.append("\(Quantity.groupedWords(skippedTrackPoints, "track point", "track points")) skipped")
        }
        if removedPhotos > 0 { parts.append("\(Quantity.groupedWords(removedPhotos, "photo", "photos")) removed") }
        return parts.joined(separator: ", ")
    }
}

extension ImportReport {
    /// Moves the files of the photos tracks located from "without a location" to "located", and names
    /// the track points left out.
    mutating func add(_ geotagging: PhotoGeotagger.Report, estimating: Bool) {
        changedPhotos += geotagging.changedPhotos
        trackCount = geotagging.trackCount
        self.estimating = estimating
        skippedTrackPoints = geotagging.skipped.count
        for (ids, source) in [(geotagging.located, LocationSource.track), (geotagging.estimated, .estimated)] {
            for id in ids {
                let files = unlocatedFiles.removeValue(forKey: id) ?? 0
                located += files
                unlocated -= files
                if source == .track { locatedFromTracks += files } else { locatedEstimated += files }
            }
        }
        lines += geotagging.skipped.map { ($0.place, $0.reason) }
    }
}

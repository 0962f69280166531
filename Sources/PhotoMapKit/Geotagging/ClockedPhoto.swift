// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// A photo as geotagging sees it, read from either catalog (SQLite or PostgreSQL) by the same rules: its
/// clock, its camera, and its location with where it came from.
public struct ClockedPhoto: Sendable {
    public let id: String
    /// Nil for photos without DateTimeOriginal, or imported before clocks were kept.
    public let clock: PhotoClock?
    /// Make and Model, length-prefixed so that no make and model run together into another's; nil for neither.
    public let camera: String?
    public let coordinate: Coordinate?
    public let source: LocationSource?

    /// A photo from a catalog's columns: the clock as the camera wrote it, the camera, the location and
    /// its source's name.
    init(
        id: String, clock: String?, subSecond: String?, clockOffset: Int?, make: String?, model: String?,
        latitude: Double?, longitude: Double?, source: String?
    ) {
        self.id = id
        self.clock = clock.flatMap { PhotoClock(local: $0, subSecond: subSecond, utcOffsetSeconds: clockOffset) }
        camera =
            make == nil && model == nil ? nil : [make ?? "", model ?? ""].map { "\($0.utf8.count):\($0)" }.joined()
        coordinate = Coordinate(latitude: latitude, longitude: longitude)
        // Located photos of a catalog made before sources were kept: their own GPS. Without a location, only
        // a removal by hand is a source (tracks leave it without one).
        let named = source.flatMap(LocationSource.init(rawValue:))
        self.source = coordinate == nil ? (named == .manual ? .manual : nil) : named ?? .exif
    }
}

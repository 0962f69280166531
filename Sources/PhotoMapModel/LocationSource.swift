// SPDX-License-Identifier: Apache-2.0
/// Where a photo's location came from.
public enum LocationSource: String, Sendable, Codable {
    /// Its own EXIF GPS.
    case exif
    /// A GPX track, by its time.
    case track
    /// The photo from the same camera nearest in time that has a location of its own or from a track.
    case estimated
    /// Set by hand (`photomap locate`).
    case manual
    /// Its XMP sidecar's GPS, written by another tool.
    case sidecar

    /// Whether tracks and estimates leave it as it is: a photo's own GPS, a correction by hand, a sidecar's.
    public var stands: Bool { self == .exif || self == .manual || self == .sidecar }
}

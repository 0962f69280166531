/// Where a photo's location came from.
public enum LocationSource: String, Sendable, Codable {
    /// Its own EXIF GPS.
    case exif
    /// A GPX track, by its time.
    case track
    /// The photo from the same camera nearest in time that has a location of its own or from a track.
    case estimated
}

/// Where a photo's location came from.
public enum LocationSource: String, Sendable, Codable {
    /// Its own EXIF GPS.
    case exif
    /// A GPX track, by its time.
    case track
}

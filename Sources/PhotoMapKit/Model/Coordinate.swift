/// A point on Earth in degrees (WGS 84), as Flickr and map pages use it.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// A coordinate, or nil when the values are no place on Earth. (0, 0) is a place like any other
    /// here; only Flickr's answers use it for "no geo", and their decoding says so.
    public init?(latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude,
              latitude.isFinite, longitude.isFinite,
              (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A point on Earth in degrees (WGS 84), as Flickr and map pages use it.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// A coordinate, or nil when the values are no place on Earth or Flickr's (0, 0) "no geo".
    public init?(latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude,
              latitude.isFinite, longitude.isFinite,
              (-90...90).contains(latitude), (-180...180).contains(longitude),
              // Flickr sends photos without geo as exactly (0, 0).
              !(latitude == 0 && longitude == 0)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}

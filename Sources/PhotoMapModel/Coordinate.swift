// SPDX-License-Identifier: Apache-2.0
/// A point on Earth in degrees (WGS 84), as Flickr and map pages use it.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// The latitudes there are.
    public static let latitudes: ClosedRange<Double> = -90...90
    /// The longitudes there are.
    public static let longitudes: ClosedRange<Double> = -180...180

    /// A coordinate, or nil when the values are no place on Earth. (0, 0) is a place like any other
    /// here; only Flickr's answers use it for "no geo", and their decoding says so.
    public init?(latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude,
            latitude.isFinite, longitude.isFinite,
            Self.latitudes.contains(latitude), Self.longitudes.contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}

// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// What a search may be asked to look around: one rule, read by the CLI's `search --near --radius` and
/// by serve's `/api/search?lat=…&lon=…&radius=…` and `/api/find?lat=…&lon=…`.
public enum SearchArea {
    /// A radius in kilometres: above 0 (a metre at least), at most half the Earth's circumference.
    public static let radiusKilometres: ClosedRange<Double> = 0.001...20_000
    /// Flickr's photos.search wants a radius under 32 km.
    public static let flickrRadiusBelow = 32.0
    /// The radius when none is given.
    public static let defaultRadius = 5.0

    /// `radius` when a search may look that far: within `radiusKilometres`, and under 32 km when Flickr
    /// answers (`online`).
    public static func checked(radius: Double, online: Bool) throws(SearchAreaError) -> Double {
        guard radius.isFinite, radiusKilometres.contains(radius), !online || radius < flickrRadiusBelow else {
            throw SearchAreaError(field: .radius, value: plain(radius), online: online)
        }
        return radius
    }

    /// A radius given as text (nil: the default), checked as `checked(radius:online:)` does.
    public static func radius(_ text: String?, online: Bool) throws(SearchAreaError) -> Double {
        guard let text else { return defaultRadius }
        guard let radius = Double(text) else { throw SearchAreaError(field: .radius, value: text, online: online) }
        return try checked(radius: radius, online: online)
    }

    /// The centre given as a latitude and a longitude in text: both, each a number in its range, or neither.
    public static func centre(latitude: String?, longitude: String?) throws(SearchAreaError) -> Coordinate? {
        if latitude == nil && longitude == nil { return nil }
        let degrees = {
            (text: String?, field: SearchAreaError.Field, range: ClosedRange<Double>)
                throws(SearchAreaError) -> Double in
            guard let text, let value = Double(text), value.isFinite, range.contains(value) else {
                throw SearchAreaError(field: field, value: text ?? "", online: false)
            }
            return value
        }
        let latitude = try degrees(latitude, .latitude, Coordinate.latitudes)
        let longitude = try degrees(longitude, .longitude, Coordinate.longitudes)
        // Both are in range, which is all a coordinate asks.
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

/// A search asked to look around a point or radius out of range: which one, the value given, and what
/// is allowed.
public struct SearchAreaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was out of range.
    public enum Field: String, Sendable {
        case latitude, longitude, radius
    }

    /// What was out of range.
    public let field: Field
    /// The value given, as given ("" when missing).
    public let value: String
    /// Whether Flickr answers (its radius is smaller).
    public let online: Bool

    /// What the field may be: "a number from -90 to 90".
    public var allowed: String {
        switch field {
        case .latitude: return "a number from -90 to 90"
        case .longitude: return "a number from -180 to 180"
        case .radius:
            let lowest = plain(SearchArea.radiusKilometres.lowerBound)
            return online
                ? "a number from \(lowest) to under \(plain(SearchArea.flickrRadiusBelow)) km (Flickr's photos.search)"
                : "a number from \(lowest) to \(plain(SearchArea.radiusKilometres.upperBound)) km"
        }
    }

    /// "the radius must be …, not '40'".
    public var description: String {
        "the \(field.rawValue) must be \(allowed), not '\(value)'"
    }
}

/// A number as a person writes it: 5, not 5.0; 0.001 as it is.
private func plain(_ number: Double) -> String {
    number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
}

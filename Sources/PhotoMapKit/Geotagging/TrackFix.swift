// SPDX-License-Identifier: Apache-2.0
/// One GPS fix of a track: where the receiver was, and when (seconds since 1970, UTC).
public struct TrackFix: Sendable, Equatable {
    /// Seconds since 1970, UTC, with its fraction.
    public var time: Double
    /// Degrees north, -90…90.
    public var latitude: Double
    /// Degrees east, -180…180.
    public var longitude: Double

    /// A fix at `time`, at `latitude`, `longitude`.
    public init(time: Double, latitude: Double, longitude: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }
}

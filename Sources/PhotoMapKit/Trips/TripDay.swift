// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The photos of one local day at one place that a viewer sees alike, as the catalog keeps them
/// (`trip_days`): how many of them the viewer sees located, and the box they lie in. Trips and home
/// are found from these, reading photos only for the days a box leaves in doubt and for the trips' days.
public struct TripDay: Sendable {
    /// The latitudes and longitudes a day's located photos lie within.
    public struct Box: Sendable, Hashable {
        public var latitudes: ClosedRange<Double>
        public var longitudes: ClosedRange<Double>

        public init(latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) {
            self.latitudes = latitudes
            self.longitudes = longitudes
        }
    }

    /// "YYYY-MM-DD" as the photos' time taken begins.
    public var text: String
    /// Days since 1970-01-01 of `text`, as `TripPhoto.day`.
    let day: Int
    /// The id of the place the photos are in.
    public var place: String
    /// The place's names as the viewer's photos carry them; nil where their location is hidden.
    var names: PlaceNames?
    /// The box of the located photos the viewer sees; nil when there are none.
    public var box: Box?
    /// How many photos the viewer sees located.
    public var located: Int
    /// The catalog's order of the last of them (a town's country and centre are its last place's).
    public var lastLocated: Int64

    /// A row; nil unless `text` is a valid "YYYY-MM-DD" date.
    init?(text: String, place: String, names: PlaceNames?, box: Box?, located: Int, lastLocated: Int64) {
        guard let day = TripPhoto.dayNumber(of: text) else { return nil }
        self.text = text
        self.day = day
        self.place = place
        self.names = names
        self.box = box
        self.located = located
        self.lastLocated = lastLocated
    }
}

extension TripDay {
    /// `spans` ("YYYY-MM-DD" to "YYYY-MM-DD") in order, those that overlap joined: the days of the photos
    /// a catalog reads for `tripPhotos(in:)`, each day once.
    static func joined(_ spans: [ClosedRange<String>]) -> [ClosedRange<String>] {
        var joined: [ClosedRange<String>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, span.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                joined.append(span)
            }
        }
        return joined
    }
}

extension TripDay.Box {
    /// Kilometres from `point` that every point of the box is at least and at most, on the sphere of
    /// `Coordinate.distance`: the distance to the box's middle less or plus a bound of the box's reach
    /// from it (along a meridian, then a parallel), and at least the difference in latitude.
    func distances(from point: Coordinate) -> ClosedRange<Double> {
        let radius = 6_371.0, radians = Double.pi / 180
        let middle = Coordinate(
            latitude: (latitudes.lowerBound + latitudes.upperBound) / 2,
            longitude: (longitudes.lowerBound + longitudes.upperBound) / 2)
        guard let middle else { return 0...Double.infinity }
        let widest =
            latitudes.contains(0) ? 1 : cos(min(abs(latitudes.lowerBound), abs(latitudes.upperBound)) * radians)
        let reach =
            radius
            * ((latitudes.upperBound - latitudes.lowerBound) / 2 * radians
                + (longitudes.upperBound - longitudes.lowerBound) / 2 * radians * widest)
        let across = point.distance(to: middle)
        let northSouth =
            radius * max(0, point.latitude - latitudes.upperBound, latitudes.lowerBound - point.latitude) * radians
        return max(0, across - reach, northSouth)...(across + reach)
    }
}

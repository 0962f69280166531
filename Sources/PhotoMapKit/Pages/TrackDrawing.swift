// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The tracks a page draws under its markers (`MapData.tracks`), compact: each line's points as whole
/// numbers of 1/`scale` degree (about a metre), the first point as it is and each next one as its
/// difference from the one before: `{"lines": [[lat, lon, Δlat, Δlon, …], …], "scale": 100000}`.
/// photomap-tracks.js adds them back up.
public struct TrackDrawing: Encodable, Sendable, Equatable {
    /// Whole numbers per degree.
    public static let scale = 100_000.0

    /// Each line's numbers.
    public let lines: [[Int]]
    /// `scale`, for the page.
    public let scale = Int(TrackDrawing.scale)

    /// The drawing of `lines`.
    public init(_ lines: [[Coordinate]]) {
        self.lines = lines.map { line in
            var numbers: [Int] = []
            numbers.reserveCapacity(line.count * 2)
            var (latitude, longitude) = (0, 0)
            for point in line {
                let (nextLatitude, nextLongitude) = (
                    Int((point.latitude * Self.scale).rounded()), Int((point.longitude * Self.scale).rounded())
                )
                numbers += [nextLatitude - latitude, nextLongitude - longitude]
                (latitude, longitude) = (nextLatitude, nextLongitude)
            }
            return numbers
        }
    }

    /// How many points it draws.
    public var pointCount: Int { lines.reduce(0) { $0 + $1.count / 2 } }

    /// The same bytes as `HTML.scriptJSON(self)`, written directly (`ScriptJSON`).
    func write(to json: inout ScriptJSON) {
        json.raw("{\"lines\":")
        json.array(lines) { json, line in json.array(line) { $0.number($1) } }
        json.raw(",\"scale\":")
        json.number(scale)
        json.raw("}")
    }
}

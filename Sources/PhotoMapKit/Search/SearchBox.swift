// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The box around a search circle: its latitudes, its longitudes (two ranges when it crosses the
/// antimeridian, all of them when it reaches a pole), and the grid cells it touches.
struct SearchBox {
    /// Kilometres in one degree of latitude, from the mean Earth radius `distance(to:)` uses.
    static let kilometresPerDegree = 6_371 * Double.pi / 180

    let latitudes: ClosedRange<Double>
    let longitudes: [ClosedRange<Double>]

    init(centre: Coordinate, radiusKilometres: Double) {
        let latitudeSpan = radiusKilometres / Self.kilometresPerDegree
        latitudes = max(centre.latitude - latitudeSpan, -90)...min(centre.latitude + latitudeSpan, 90)
        let reachesPole = centre.latitude - latitudeSpan <= -90 || centre.latitude + latitudeSpan >= 90
        // The widest point of the circle is nearer the pole than its centre: use that latitude's scale.
        let widest = max(abs(latitudes.lowerBound), abs(latitudes.upperBound))
        let longitudeSpan = radiusKilometres / max(Self.kilometresPerDegree * cos(widest * .pi / 180), 0.001)
        if reachesPole || longitudeSpan >= 180 {
            longitudes = [-180...180]
        } else if centre.longitude - longitudeSpan < -180 {
            longitudes = [-180...(centre.longitude + longitudeSpan), (centre.longitude - longitudeSpan + 360)...180]
        } else if centre.longitude + longitudeSpan > 180 {
            longitudes = [(centre.longitude - longitudeSpan)...180, -180...(centre.longitude + longitudeSpan - 360)]
        } else {
            longitudes = [(centre.longitude - longitudeSpan)...(centre.longitude + longitudeSpan)]
        }
    }

    /// The grid cells the box touches; nil when there are more than `LocalIndex.maximumCells`.
    var cellTokens: [String]? {
        cellTokens(degrees: LocalIndex.cellDegrees, limit: LocalIndex.maximumCells)
    }

    /// The cells of a grid of `degrees` the box touches, named `zc<row>x<column>` (rows from the south
    /// pole, columns from the antimeridian); nil when there are more than `limit`.
    func cellTokens(degrees size: Double, limit: Int) -> [String]? {
        let rows =
            Int(
                ((latitudes.lowerBound + 90) / size).rounded(.down))...Int(
                ((min(latitudes.upperBound, 89.999_999) + 90) / size).rounded(.down))
        var tokens: [String] = []
        for range in longitudes {
            let columns =
                Int(
                    ((range.lowerBound + 180) / size).rounded(.down))...Int(
                    ((min(range.upperBound, 179.999_999) + 180) / size).rounded(.down))
            guard tokens.count + rows.count * columns.count <= limit else { return nil }
            tokens += rows.flatMap { row in columns.map { "zc\(row)x\($0)" } }
        }
        return tokens
    }

    /// The box's cells of `records_cells` as ranges of their numbers, one for each row of cells and
    /// range of longitudes; nil when there are more than `maximumCellRanges`.
    var circleCellRanges: [ClosedRange<Int64>]? {
        let rows =
            LocalIndex.circleCellIndex(
                latitudes.lowerBound + 90)...LocalIndex.circleCellIndex(latitudes.upperBound + 90)
        guard rows.count * longitudes.count <= Self.maximumCellRanges else { return nil }
        return longitudes.flatMap { range in
            let columns =
                LocalIndex.circleCellIndex(range.lowerBound + 180)...LocalIndex.circleCellIndex(range.upperBound + 180)
            return rows.map {
                LocalIndex.circleCell(
                    row: $0, column: columns.lowerBound)...LocalIndex.circleCell(row: $0, column: columns.upperBound)
            }
        }
    }

    /// Ranges of cells a query may name (a circle about 100 km across).
    static let maximumCellRanges = 100
}

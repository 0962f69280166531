// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Places in cells of `degrees` a side, for walking those near a point. The places are numbered in cell
/// order (row by row, each row by column, a cell's places in the order they were given), so a row's cells
/// are one run of numbers: a point's candidates are a few contiguous runs, found by binary search, in the
/// order a cell-by-cell walk meets them — no hashing, and the nearest of equally near places stays the same.
struct PlaceGrid: Sendable {
    let degrees: Double
    /// Columns around the globe; column numbers run from -columns / 2 (at -180°).
    private let columns: Int
    /// Rows from the south pole: row `r` holds latitude cell `r - rowOffset`.
    private let rowOffset: Int
    /// The places of row `r`: `rowStarts[r]..<rowStarts[r + 1]` (offset by `first`).
    let rowStarts: FlatColumn<Int32>
    /// Each place's column, ascending within its row.
    let placeColumns: FlatColumn<Int32>
    /// The number of the grid's first place.
    let first: Int

    /// The cell of `degrees` a side holding `coordinate`: rows from the equator, columns from 0° (-180° ends
    /// in the last column before 180°).
    static func cell(_ coordinate: Coordinate, degrees: Double) -> (latitude: Int, longitude: Int) {
        let columns = Int((360 / degrees).rounded())
        return (
            Int((coordinate.latitude / degrees).rounded(.down)),
            min(Int((coordinate.longitude / degrees).rounded(.down)), columns / 2 - 1)
        )
    }

    /// The order to number `coordinates` in for a grid of `degrees`: indices into `coordinates`, in cell
    /// order, ties in their given order.
    static func order(_ coordinates: [Coordinate], degrees: Double) -> [Int] {
        let columns = Int((360 / degrees).rounded()), rowOffset = Int((90 / degrees).rounded())
        let count = coordinates.count
        // One number a place, its cell's then its own, sorted as numbers: comparing (row, column, index)
        // tuples was a tenth of a debug build's import start.
        var keys = coordinates.indices.map { index in
            let cell = cell(coordinates[index], degrees: degrees)
            return ((cell.latitude + rowOffset) * columns + cell.longitude + columns / 2) * count + index
        }
        keys.sort()
        return keys.map { $0 % count }
    }

    /// A grid of places numbered `first`, `first + 1`… at `coordinates`, which are in `order(_:degrees:)`.
    init(_ coordinates: [Coordinate], degrees: Double, first: Int) {
        self.degrees = degrees
        self.first = first
        columns = Int((360 / degrees).rounded())
        rowOffset = Int((90 / degrees).rounded())
        let rows = 2 * rowOffset + 1
        var rowStarts = [Int32](repeating: 0, count: rows + 1)
        var placeColumns: [Int32] = []
        placeColumns.reserveCapacity(coordinates.count)
        for coordinate in coordinates {
            let cell = Self.cell(coordinate, degrees: degrees)
            rowStarts[cell.latitude + rowOffset + 1] += 1
            placeColumns.append(Int32(cell.longitude))
        }
        for row in 0..<rows { rowStarts[row + 1] += rowStarts[row] }
        self.rowStarts = FlatColumn(rowStarts)
        self.placeColumns = FlatColumn(placeColumns)
    }

    /// A grid as a file holds it (`rowStarts` and `placeColumns` as the other init makes them); nil when
    /// they do not fit together: rows that do not run in order, or over other than the places there are.
    init?(degrees: Double, first: Int, rowStarts: FlatColumn<Int32>, placeColumns: FlatColumn<Int32>) {
        self.degrees = degrees
        self.first = first
        columns = Int((360 / degrees).rounded())
        rowOffset = Int((90 / degrees).rounded())
        guard rowStarts.count == 2 * rowOffset + 2, rowStarts[0] == 0,
            Int(rowStarts[rowStarts.count - 1]) == placeColumns.count,
            (0..<(rowStarts.count - 1)).allSatisfy({ rowStarts[$0] <= rowStarts[$0 + 1] })
        else { return nil }
        self.rowStarts = rowStarts
        self.placeColumns = placeColumns
    }

    /// Calls `body` with each place in the cells within `reach` km of `coordinate` (wider in longitude
    /// near the poles), row by row, each row west to east from the walk's western edge (across the
    /// antimeridian where it lies beyond it).
    func forEach(near coordinate: Coordinate, reach: Double, _ body: (Int) -> Void) {
        let centre = Self.cell(coordinate, degrees: degrees)
        let latitudeSpan = Int((reach / (111 * degrees)).rounded(.up))
        let shrink = max(cos(coordinate.latitude * .pi / 180), 0.02)
        let half = columns / 2
        let longitudeSpan = min(half, Int((reach / (111 * degrees * shrink)).rounded(.up)))
        // The walk's columns, from its western edge east; each column once.
        let west = centre.longitude - longitudeSpan
        let east = min(centre.longitude + longitudeSpan, west + columns - 1)
        let lowest = max(centre.latitude - latitudeSpan + rowOffset, 0)
        let highest = min(centre.latitude + latitudeSpan + rowOffset, rowStarts.count - 2)
        guard lowest <= highest else { return }
        for row in lowest...highest {
            let (rowStart, rowEnd) = (Int(rowStarts[row]), Int(rowStarts[row + 1]))
            guard rowStart < rowEnd else { continue }
            var from = west
            while from <= east {
                // Wrapped into -half..<half; a run ends at the antimeridian or the walk's eastern edge.
                let column = ((from + half) % columns + columns) % columns - half
                let last = column + min(east - from, half - 1 - column)
                var index = lowerBound(Int32(column), from: rowStart, to: rowEnd)
                while index < rowEnd, placeColumns[index] <= Int32(last) {
                    body(first + index)
                    index += 1
                }
                from += last - column + 1
            }
        }
    }

    /// The first place in `from..<to` whose column is `column` or more.
    private func lowerBound(_ column: Int32, from: Int, to: Int) -> Int {
        var (low, high) = (from, to)
        while low < high {
            let middle = (low + high) / 2
            if placeColumns[middle] < column { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

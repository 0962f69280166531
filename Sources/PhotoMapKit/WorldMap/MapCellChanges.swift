// SPDX-License-Identifier: Apache-2.0
/// What a batch of photos written together does to the map's cells (`map_cells`, `MapGridSQL`): the
/// points that go and come, grouped by level, cell, month and audience into one change each — how many, the sums
/// of their coordinates, the least point that comes. A batch then writes each cell it touches once, in key
/// order, where the triggers write 17 cells for every photo one at a time.
struct MapCellChanges {
    /// A row of `map_cells`, by its key.
    struct Cell: Hashable, Comparable {
        let level: Int
        let cell: Int64
        let month: Int
        let audience: Int

        static func < (left: Cell, right: Cell) -> Bool {
            (left.level, left.audience, left.cell, left.month) < (right.level, right.audience, right.cell, right.month)
        }
    }

    /// How one cell changes.
    struct Change {
        /// Points that came less points that went.
        var count = 0
        /// In `MapGridSQL.units`.
        var sumLatitude: Int64 = 0
        var sumLongitude: Int64 = 0
        /// The point of least id among those that came; nil when none came.
        var leastAdded: MapPoint?
        /// Whether a point went: emptied, the cell goes; its photo, if that point was it, is read again.
        var lost = false
    }

    private(set) var changes: [Cell: Change] = [:]
    /// The ids of the points that went (one that came back is among them too).
    private(set) var removed: Set<String> = []

    var isEmpty: Bool { changes.isEmpty }

    /// A point that comes onto the map.
    mutating func add(_ point: MapPoint) {
        let latitude = MapGridSQL.units(point.latitude), longitude = MapGridSQL.units(point.longitude)
        update(point) { change in
            change.count += 1
            change.sumLatitude += latitude
            change.sumLongitude += longitude
            if Self.precedes(point, change.leastAdded) { change.leastAdded = point }
        }
    }

    /// A point that leaves the map (as `map_points` held it).
    mutating func remove(_ point: MapPoint) {
        removed.insert(point.id)
        let latitude = MapGridSQL.units(point.latitude), longitude = MapGridSQL.units(point.longitude)
        update(point) { change in
            change.count -= 1
            change.sumLatitude -= latitude
            change.sumLongitude -= longitude
            change.lost = true
        }
    }

    /// Whether `point`'s id comes before `least`'s (nil for none yet) in byte order, as SQLite's BINARY and
    /// PostgreSQL's "C" collation compare the ids.
    private static func precedes(_ point: MapPoint, _ least: MapPoint?) -> Bool {
        least.map { point.id.utf8.lexicographicallyPrecedes($0.id.utf8) } ?? true
    }

    /// Applies `body` to the change of each cell holding `point`, a level at a time.
    private mutating func update(_ point: MapPoint, _ body: (inout Change) -> Void) {
        for level in MapTile.cellLevels {
            body(
                &changes[
                    Cell(
                        level: level, cell: MapTile.cell(ofKey: point.key, level: level), month: point.month,
                        audience: point.audience), default: Change()])
        }
    }

    /// A change's least point as its row writes it: "" (none came: the row keeps its own) or its id, and
    /// its coordinate.
    static func columns(of least: MapPoint?) -> (id: String, latitude: Double, longitude: Double) {
        (least?.id ?? "", least?.latitude ?? 0, least?.longitude ?? 0)
    }

    /// The changes in key order: cells written one after another share pages of the table and its index.
    var sorted: [(cell: Cell, change: Change)] {
        changes.sorted { $0.key < $1.key }.map { (cell: $0.key, change: $0.value) }
    }

    /// How a total (`map_totals`: a cell of `MapTile.totalLevels` over every month) changes: its months'
    /// changes summed.
    struct TotalChange {
        var count = 0
        var sumLatitude: Int64 = 0
        var sumLongitude: Int64 = 0
        /// As `Change`'s, over the months.
        var leastAdded: MapPoint?
        /// The first dated month and the last month a point came in (nil, -1: none).
        var firstAdded: Int?
        var lastAdded = -1
        /// Whether a point went: the total is summed again from its cell's months.
        var lost = false
    }

    /// The totals' changes, in key order (a `Cell` whose month is 0).
    var totals: [(cell: Cell, change: TotalChange)] {
        var totals: [Cell: TotalChange] = [:]
        for (cell, change) in changes where MapTile.totalLevels.contains(cell.level) {
            let key = Cell(level: cell.level, cell: cell.cell, month: 0, audience: cell.audience)
            var total = totals[key, default: TotalChange()]
            total.count += change.count
            total.sumLatitude += change.sumLatitude
            total.sumLongitude += change.sumLongitude
            total.lost = total.lost || change.lost
            if let least = change.leastAdded {
                if Self.precedes(least, total.leastAdded) { total.leastAdded = least }
                if cell.month >= 0 { total.firstAdded = min(total.firstAdded ?? cell.month, cell.month) }
                total.lastAdded = max(total.lastAdded, cell.month)
            }
            totals[key] = total
        }
        return totals.sorted { $0.key < $1.key }.map { (cell: $0.key, change: $0.value) }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The GeoNames cities a map names when it is zoomed in too far for its 1:110m outline (whose
/// coast cuts through Manhattan as a straight wedge): a page carries only the places around its
/// own annotations, most populous first, so its data stays bounded whatever the gazetteer holds.
public struct PlaceLabels: Sendable {
    /// A place's name and position, encoded as `[name, latitude, longitude]`.
    public struct Label: Encodable, Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(name)
            try container.encode((latitude * 1e4).rounded() / 1e4)
            try container.encode((longitude * 1e4).rounded() / 1e4)
        }

        /// The same bytes as `encode(to:)` through `HTML.scriptJSON`, written directly.
        func write(to json: inout ScriptJSON) {
            json.raw("[")
            json.string(name)
            json.raw(",")
            json.number((latitude * 1e4).rounded() / 1e4)
            json.raw(",")
            json.number((longitude * 1e4).rounded() / 1e4)
            json.raw("]")
        }
    }

    /// How many places a list page's map names, and a photo page's small map.
    public static let perListPage = 300, perPhotoPage = 30

    /// Cells of `cellSize` degrees: a page names the places in its annotations' cells and the cells
    /// around them (up to one or two cells, 50–100 km, away).
    static let cellSize = 0.5
    /// A city and its population, for ranking.
    typealias City = (label: Label, population: Int)
    /// The cities by cell, each cell's most populous first (`ranksBefore`). Made the first time a page
    /// asks (`near`): an export whose pages are all current never parses the gazetteer (~0.1 s).
    private let cells: Locked<Cells>
    /// The digest of what the labels are made from: pages naming places are made again when it changes,
    /// as when the gazetteer's cities.tsv is edited or updated.
    public let version: [UInt8]

    private enum Cells {
        case unmade(@Sendable () -> [City])
        case made([Int: [City]])
    }

    /// Labels for `cities`, their version the digest of every city (name, position, population).
    init(cities: [City]) {
        let inputs = InputDigest()
        for city in cities {
            inputs.add(city.label.name)
            inputs.add(Coordinate(latitude: city.label.latitude, longitude: city.label.longitude))
            inputs.add(city.population)
        }
        self.init(version: inputs.finishDigest()) { cities }
    }

    private init(version: [UInt8], cities: @escaping @Sendable () -> [City]) {
        self.version = version
        cells = Locked(.unmade(cities))
    }

    /// The cities of a gazetteer folder's cities.tsv (GeoNames: id, name, latitude, longitude, …, population),
    /// read now and parsed when first asked for; their version is the file's SHA-256.
    public static func load(gazetteer folder: URL) throws -> PlaceLabels {
        let data = try Gazetteer.contents(folder.appendingPathComponent("cities.tsv"))
        return PlaceLabels(version: SHA256.digest(data)) {
            Gazetteer.rows(of: data).compactMap { row in
                guard row.count >= 7, let latitude = Double(row[2]), let longitude = Double(row[3]),
                    let coordinate = Coordinate(latitude: latitude, longitude: longitude),
                    !row[1].isEmpty
                else { return nil }
                return (
                    Label(name: row[1], latitude: coordinate.latitude, longitude: coordinate.longitude),
                    Int(row[6]) ?? 0
                )
            }
        }
    }

    /// The embedded gazetteer's (Fixtures/gazetteer), read the first time a page asks for labels;
    /// nil when there is none: pages then have no labels, and work as before.
    public static let bundled: PlaceLabels? = FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv").flatMap {
        try? load(gazetteer: $0.appendingPathComponent("gazetteer"))
    }

    /// The cities by cell, made on first use; pages rendered on every core wait for the one making them.
    private var citiesByCell: [Int: [City]] {
        cells.withLock { cells in
            switch cells {
            case .made(let byCell):
                return byCell
            case .unmade(let cities):
                var byCell: [Int: [City]] = [:]
                for city in cities() {
                    byCell[Self.cell(latitude: city.label.latitude, longitude: city.label.longitude), default: []]
                        .append(city)
                }
                byCell = byCell.mapValues { $0.sorted(by: Self.ranksBefore) }
                cells = .made(byCell)
                return byCell
            }
        }
    }

    /// At most `limit` places around `coordinates`, most populous first.
    public func near(_ coordinates: [Coordinate], limit: Int) -> [Label] {
        let columns = Int((360 / Self.cellSize).rounded())
        var wanted = Set<Int>()
        for coordinate in coordinates {
            let cell = Self.cell(latitude: coordinate.latitude, longitude: coordinate.longitude)
            guard !wanted.contains(cell) else { continue }
            let row = cell / columns, column = cell % columns
            for dy in -1...1 {
                for dx in -1...1 { wanted.insert((row + dy) * columns + (column + dx + columns) % columns) }
            }
        }
        // Each cell is ranked already: the first `limit` of their merge, not a sort of every city near.
        let cells = citiesByCell
        var lists = wanted.compactMap { cells[$0]?[...] }
        var labels: [Label] = []
        labels.reserveCapacity(limit)
        while labels.count < limit {
            var best: Int?
            for index in lists.indices where !lists[index].isEmpty {
                if let current = best, let head = lists[index].first, let leader = lists[current].first,
                    !Self.ranksBefore(head, leader)
                {
                    continue
                }
                best = index
            }
            guard let best, let city = lists[best].popFirst() else { break }
            labels.append(city.label)
        }
        return labels
    }

    /// The order places are named in: most populous first, ties broken by name and position, so that a
    /// page comes out the same, byte for byte, every time.
    private static func ranksBefore(_ one: City, _ other: City) -> Bool {
        (one.population, other.label.name, other.label.latitude, other.label.longitude)
            > (other.population, one.label.name, one.label.latitude, one.label.longitude)
    }

    /// A cell's number: rows from the south pole, columns from the antimeridian.
    private static func cell(latitude: Double, longitude: Double) -> Int {
        let columns = Int((360 / cellSize).rounded())
        let row = Int(((latitude + 90) / cellSize).rounded(.down)),
            column = Int(((longitude + 180) / cellSize).rounded(.down)) % columns
        return row * columns + column
    }
}

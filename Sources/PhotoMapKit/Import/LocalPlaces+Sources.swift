// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension LocalPlaces {
    /// The places built from the gazetteer folder's files: its cities, villages, regions (GeoNames, CC BY
    /// 4.0) and boundaries (Natural Earth, public domain), Fixtures/gazetteer. What places.bin holds.
    public init(sources folder: URL) throws {
        // The boundaries first: indexing them needs room for a while, which the places would add to.
        let boundaries = BoundaryLookup(try Boundaries.load(folder.appendingPathComponent("boundaries.bin")))
        var codes: [String: Int32] = [:]
        func code(_ text: String) -> Int32 {
            if let known = codes[text] { return known }
            codes[text] = Int32(codes.count)
            return Int32(codes.count - 1)
        }
        // The places as they are read, a column each (a row of five texts each would hold as much again,
        // and its copy in grid order twice as much: geotag's peak); then the columns in grid order.
        var ids: [String] = [], names: [String] = [], contexts: [Int32] = [], coordinates: [Coordinate] = []
        var contextNumbers: [String: Int32] = [:], contextTexts: [String] = []
        var reaches: [Double] = [], countries: [Int32] = [], admin1s: [Int32] = []
        var cities: [Int] = [], villages: [Int] = []
        func reserve(_ rows: Int) {
            let count = ids.count + rows
            ids.reserveCapacity(count)
            names.reserveCapacity(count)
            contexts.reserveCapacity(count)
            coordinates.reserveCapacity(count)
            reaches.reserveCapacity(count)
            countries.reserveCapacity(count)
            admin1s.reserveCapacity(count)
        }
        let regions = try Gazetteer.forEachCity(in: folder, villages: true, divisions: true, reserving: reserve) {
            entry in
            if entry.population < 15_000 { villages.append(ids.count) } else { cities.append(ids.count) }
            ids.append(entry.id)
            names.append(entry.name)
            if let number = contextNumbers[entry.context] {
                contexts.append(number)
            } else {
                contextNumbers[entry.context] = Int32(contextTexts.count)
                contexts.append(Int32(contextTexts.count))
                contextTexts.append(entry.context)
            }
            coordinates.append(entry.coordinate)
            reaches.append(Self.reach(population: entry.population))
            countries.append(code(entry.country))
            admin1s.append(code(entry.admin1))
        }
        let cityOrder = PlaceGrid.order(cities.map { coordinates[$0] }, degrees: Self.cityDegrees).map { cities[$0] }
        let order =
            cityOrder
            + PlaceGrid.order(villages.map { coordinates[$0] }, degrees: Self.villageDegrees).map { villages[$0] }
        func ordered<Value>(_ column: inout [Value]) -> [Value] {
            defer { column = [] }
            return order.map { column[$0] }
        }
        self.ids = FlatStrings(ordered(&ids))
        self.names = FlatStrings(ordered(&names))
        self.contexts = FlatColumn(ordered(&contexts))
        self.contextTexts = FlatStrings(contextTexts)
        let placeCoordinates = ordered(&coordinates)
        latitudes = FlatColumn(placeCoordinates.map(\.latitude))
        longitudes = FlatColumn(placeCoordinates.map(\.longitude))
        self.reaches = FlatColumn(ordered(&reaches))
        self.countries = FlatColumn(ordered(&countries))
        let placeAdmin1s = ordered(&admin1s)
        self.admin1s = FlatColumn(placeAdmin1s)
        // The division outlines are generalised: St. Louis's centre lies in their Illinois. A photo taken
        // there is in that outline too, and the city must still name it.
        let noDivision = code("")
        locatedDivisions = FlatColumn(
            zip(placeCoordinates, placeAdmin1s).map { coordinate, admin1 in
                let division = boundaries.locate(coordinate)?.division?.division ?? ""
                let located = code(division)
                return located != admin1 ? located : noDivision
            })
        self.codes = codes
        cityGrid = PlaceGrid(Array(placeCoordinates[..<cityOrder.count]), degrees: Self.cityDegrees, first: 0)
        villageGrid = PlaceGrid(
            Array(placeCoordinates[cityOrder.count...]), degrees: Self.villageDegrees, first: cityOrder.count)
        self.boundaries = boundaries
        countryNames = Dictionary(
            regions.filter { $0.admin1.isEmpty }.map { ($0.country, $0.names[0]) },
            uniquingKeysWith: { first, _ in first })
        divisionNames = Dictionary(
            regions.filter { !$0.admin1.isEmpty }.map { ("\($0.country)/\($0.admin1)", $0.names[0]) },
            uniquingKeysWith: { first, _ in first })
    }
}

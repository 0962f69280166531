// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The places as places.bin holds them (`PlaceFile`), sections in this order: the number of cities; the
/// places' ids, names, context numbers, context texts, latitudes, longitudes, reaches, country, admin1 and
/// located division numbers; the codes; each grid's row starts and columns; the country and division
/// names (keys, then texts); then for the countries and for the divisions the boundary index: its regions'
/// countries, divisions and names, its points' longitudes and latitudes, its cells' starts, its entries'
/// regions and edge starts, its edges.
extension LocalPlaces {
    /// The places from the folder's places.bin, mapped; refused when the file is missing, of another
    /// version, made from other files than the folder's, or does not hang together.
    init(prebuilt folder: URL) throws(PlaceFile.Refusal) {
        guard let bytes = FlatBytes(mapping: folder.appendingPathComponent(PlaceFile.name)) else { throw .missing }
        var file = try PlaceFile.Reader(bytes, signature: PlaceFile.signature(of: folder))
        let cityCount = Int(try file.column(Int64.self)[0])
        ids = try file.strings()
        names = try file.strings()
        contexts = try file.column()
        contextTexts = try file.strings()
        latitudes = try file.column()
        longitudes = try file.column()
        reaches = try file.column()
        countries = try file.column()
        admin1s = try file.column()
        locatedDivisions = try file.column()
        codes = Dictionary(
            try file.strings().all.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        let count = ids.count
        guard (0...count).contains(cityCount),
            [names.count, contexts.count, latitudes.count, longitudes.count, reaches.count].allSatisfy({ $0 == count }),
            [countries.count, admin1s.count, locatedDivisions.count].allSatisfy({ $0 == count }),
            let cityGrid = PlaceGrid(
                degrees: Self.cityDegrees, first: 0, rowStarts: try file.column(), placeColumns: try file.column()),
            let villageGrid = PlaceGrid(
                degrees: Self.villageDegrees, first: cityCount, rowStarts: try file.column(),
                placeColumns: try file.column()),
            cityGrid.placeColumns.count == cityCount, villageGrid.placeColumns.count == count - cityCount
        else { throw .malformed("its columns do not fit together") }
        self.cityGrid = cityGrid
        self.villageGrid = villageGrid
        countryNames = try Self.dictionary(&file)
        divisionNames = try Self.dictionary(&file)
        boundaries = BoundaryLookup(countries: try Self.index(&file), divisions: try Self.index(&file))
        try file.finish()
    }

    /// Writes places.bin into `folder` from its files, unless the one there is up to date. Whether it wrote.
    @discardableResult
    public static func prebuild(gazetteer folder: URL) throws -> Bool {
        if (try? Self(prebuilt: folder)) != nil { return false }
        let signature = PlaceFile.signature(of: folder)
        try Self(sources: folder).write(to: folder.appendingPathComponent(PlaceFile.name), signature: signature)
        return true
    }

    /// Writes these places as places.bin to `target`, signed as made from files of `signature`.
    func write(to target: URL, signature: [UInt8]) throws {
        let places = self
        var file = PlaceFile.Writer()
        file.add(FlatColumn([Int64(places.villageGrid.first)]))
        file.add(places.ids)
        file.add(places.names)
        file.add(places.contexts)
        file.add(places.contextTexts)
        file.add(places.latitudes)
        file.add(places.longitudes)
        file.add(places.reaches)
        file.add(places.countries)
        file.add(places.admin1s)
        file.add(places.locatedDivisions)
        file.add(FlatStrings(places.codes.sorted { $0.value < $1.value }.map(\.key)))
        for grid in [places.cityGrid, places.villageGrid] {
            file.add(grid.rowStarts)
            file.add(grid.placeColumns)
        }
        for names in [places.countryNames, places.divisionNames] {
            let sorted = names.sorted { $0.key < $1.key }
            file.add(FlatStrings(sorted.map(\.key)))
            file.add(FlatStrings(sorted.map(\.value)))
        }
        for index in [places.boundaries.countries, places.boundaries.divisions] {
            file.add(FlatStrings(index.regions.map(\.country)))
            file.add(FlatStrings(index.regions.map(\.division)))
            file.add(FlatStrings(index.regions.map(\.name)))
            file.add(index.longitudeSteps)
            file.add(index.latitudeSteps)
            file.add(index.cellStarts)
            file.add(index.entryRegions)
            file.add(index.entryEdgeStarts)
            file.add(index.edges)
        }
        try Data(file.bytes(signature: signature)).write(to: target, options: .atomic)
    }

    private static func dictionary(_ file: inout PlaceFile.Reader) throws(PlaceFile.Refusal) -> [String: String] {
        let (keys, values) = (try file.strings(), try file.strings())
        guard keys.count == values.count else { throw .malformed("names without their keys") }
        return Dictionary(zip(keys.all, values.all), uniquingKeysWith: { first, _ in first })
    }

    private static func index(_ file: inout PlaceFile.Reader) throws(PlaceFile.Refusal) -> BoundaryIndex {
        let (countries, divisions, names) = (try file.strings(), try file.strings(), try file.strings())
        guard countries.count == divisions.count, countries.count == names.count else {
            throw .malformed("regions without their names")
        }
        let index = BoundaryIndex(
            regions: (0..<countries.count).map {
                Boundaries.Region(country: countries[$0], division: divisions[$0], name: names[$0])
            },
            longitudeSteps: try file.column(), latitudeSteps: try file.column(), cellStarts: try file.column(),
            entryRegions: try file.column(), entryEdgeStarts: try file.column(), edges: try file.column())
        guard index.cellStarts.count == BoundaryIndex.columns * BoundaryIndex.rows + 1,
            index.entryEdgeStarts.count == index.entryRegions.count + 1,
            index.longitudeSteps.count == index.latitudeSteps.count
        else { throw .malformed("a boundary index that does not fit together") }
        return index
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The places as places.bin holds them (`PlaceFile`), in the sections `PlaceSections` lists.
extension LocalPlaces {
    /// The places from the folder's places.bin, mapped; refused when the file is missing, of another
    /// version, made from other files than the folder's, or does not hang together.
    init(prebuilt folder: URL) throws(PlaceFile.Refusal) {
        guard let bytes = FlatBytes(mapping: folder.appendingPathComponent(PlaceFile.name)) else { throw .missing }
        var file = try PlaceFile.Reader(bytes, signature: PlaceFile.signature(of: folder))
        var sections = PlaceSections()
        try sections.pass(&file)
        try file.finish()
        try self.init(sections)
    }

    /// The places a file's sections hold, checked to fit together.
    private init(_ file: PlaceSections) throws(PlaceFile.Refusal) {
        let cityCount = Int(file.cityCount[0])
        (ids, names, contexts, contextTexts) = (file.ids, file.names, file.contexts, file.contextTexts)
        (latitudes, longitudes, reaches) = (file.latitudes, file.longitudes, file.reaches)
        (countries, admin1s, locatedDivisions) = (file.countries, file.admin1s, file.locatedDivisions)
        codes = Dictionary(file.codes.all.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        let count = ids.count
        guard (0...count).contains(cityCount),
            [names.count, contexts.count, latitudes.count, longitudes.count, reaches.count].allSatisfy({ $0 == count }),
            [countries.count, admin1s.count, locatedDivisions.count].allSatisfy({ $0 == count }),
            let cityGrid = PlaceGrid(
                degrees: Self.cityDegrees, first: 0, rowStarts: file.cityRows, placeColumns: file.cityColumns),
            let villageGrid = PlaceGrid(
                degrees: Self.villageDegrees, first: cityCount, rowStarts: file.villageRows,
                placeColumns: file.villageColumns),
            cityGrid.placeColumns.count == cityCount, villageGrid.placeColumns.count == count - cityCount
        else { throw .malformed("its columns do not fit together") }
        self.cityGrid = cityGrid
        self.villageGrid = villageGrid
        countryNames = try Self.dictionary(file.countryKeys, file.countryNames)
        divisionNames = try Self.dictionary(file.divisionKeys, file.divisionNames)
        boundaries = BoundaryLookup(
            countries: try Self.index(file.countryIndex), divisions: try Self.index(file.divisionIndex))
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
        var file = PlaceFile.Writer()
        var sections = PlaceSections(
            cityCount: FlatColumn([Int64(villageGrid.first)]), ids: ids, names: names, contexts: contexts,
            contextTexts: contextTexts, latitudes: latitudes, longitudes: longitudes, reaches: reaches,
            countries: countries, admin1s: admin1s, locatedDivisions: locatedDivisions,
            codes: FlatStrings(codes.sorted { $0.value < $1.value }.map(\.key)),
            cityRows: cityGrid.rowStarts, cityColumns: cityGrid.placeColumns,
            villageRows: villageGrid.rowStarts, villageColumns: villageGrid.placeColumns)
        (sections.countryKeys, sections.countryNames) = Self.sorted(countryNames)
        (sections.divisionKeys, sections.divisionNames) = Self.sorted(divisionNames)
        (sections.countryIndex, sections.divisionIndex) = (
            Self.sections(boundaries.countries), Self.sections(boundaries.divisions)
        )
        try sections.pass(&file)
        try Data(file.bytes(signature: signature)).write(to: target, options: .atomic)
    }

    /// A table of names as two sections: its keys and its texts, sorted by key.
    private static func sorted(_ names: [String: String]) -> (FlatStrings, FlatStrings) {
        let sorted = names.sorted { $0.key < $1.key }
        return (FlatStrings(sorted.map(\.key)), FlatStrings(sorted.map(\.value)))
    }

    private static func dictionary(_ keys: FlatStrings, _ values: FlatStrings) throws(PlaceFile.Refusal) -> [String:
        String]
    {
        guard keys.count == values.count else { throw .malformed("names without their keys") }
        return Dictionary(zip(keys.all, values.all), uniquingKeysWith: { first, _ in first })
    }

    private static func sections(_ index: BoundaryIndex) -> PlaceSections.Index {
        PlaceSections.Index(
            regionCountries: FlatStrings(index.regions.map(\.country)),
            regionDivisions: FlatStrings(index.regions.map(\.division)),
            regionNames: FlatStrings(index.regions.map(\.name)), longitudeSteps: index.longitudeSteps,
            latitudeSteps: index.latitudeSteps, cellStarts: index.cellStarts, entryRegions: index.entryRegions,
            entryEdgeStarts: index.entryEdgeStarts, edges: index.edges)
    }

    private static func index(_ file: PlaceSections.Index) throws(PlaceFile.Refusal) -> BoundaryIndex {
        let (countries, divisions, names) = (file.regionCountries, file.regionDivisions, file.regionNames)
        guard countries.count == divisions.count, countries.count == names.count else {
            throw .malformed("regions without their names")
        }
        let index = BoundaryIndex(
            regions: (0..<countries.count).map {
                Boundaries.Region(country: countries[$0], division: divisions[$0], name: names[$0])
            },
            longitudeSteps: file.longitudeSteps, latitudeSteps: file.latitudeSteps, cellStarts: file.cellStarts,
            entryRegions: file.entryRegions, entryEdgeStarts: file.entryEdgeStarts, edges: file.edges)
        guard index.cellStarts.count == BoundaryIndex.columns * BoundaryIndex.rows + 1,
            index.entryEdgeStarts.count == index.entryRegions.count + 1,
            index.longitudeSteps.count == index.latitudeSteps.count
        else { throw .malformed("a boundary index that does not fit together") }
        return index
    }
}

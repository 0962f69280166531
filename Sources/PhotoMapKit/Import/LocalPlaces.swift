import Foundation

/// Groups imported photos into places as Flickr does. A located photo's country and division are the
/// boundaries it lies in (`BoundaryLookup`); it belongs to the nearest populated place of the gazetteer
/// (GeoNames places of 1,000 people or more: cities and villages) of that country and division that it
/// lies within — a distance that grows with the place's size — its GeoNames id the place's id. A photo near no such city belongs
/// to its division ("region_US_WA"), else to its country ("country_US"); one out at sea to a place named
/// for its 1° square.
public struct LocalPlaces: Sendable {
    // The places (GeoNames cities, then villages), numbered in their grids' order. What the walk reads
    // of each is kept apart from the names: a point looks at a few hundred places and names one.
    private let ids: [String]
    private let names: [String]
    /// "Bavaria, Germany", by number in `contextTexts`: one text for all the places of a division (each
    /// place's own full name held 12 MB), "Munich, " put before it when a photo is named.
    private let contexts: [Int32]
    private let contextTexts: [String]
    private let coordinates: [Coordinate]
    /// `LocalPlaces.reach(population:)` of each, in kilometres.
    private let reaches: [Double]
    /// Country and admin1 codes as numbers of `codes`, compared without comparing text.
    private let countries: [Int32]
    private let admin1s: [Int32]
    /// The division code of the outline a place's centre lies in, where that is not its own `admin1`.
    private let locatedDivisions: [Int32]
    private let codes: [String: Int32]
    /// Places of 15,000 people or more (reaching up to `greatestReach`) by 1° cell.
    private let cityGrid: PlaceGrid
    /// Villages (under 15,000 people, reaching at most 5 km) by cell of 0.1° (11 km of latitude, more than
    /// a village's reach): a point looks only at the few cells around it, not at every village of 30 km around.
    private let villageGrid: PlaceGrid
    private let countryNames: [String: String]
    /// GeoNames' English names of the divisions, by "country/admin1": "DE/02" Bavaria.
    private let divisionNames: [String: String]
    private let boundaries: BoundaryLookup

    /// The gazetteer folder's cities, villages, regions (GeoNames, CC BY 4.0) and boundaries (Natural Earth, public
    /// domain): Fixtures/gazetteer.
    public init(gazetteer folder: URL) throws {
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
        let villageDegrees = 0.1
        let cityOrder = PlaceGrid.order(cities.map { coordinates[$0] }, degrees: 1).map { cities[$0] }
        let order =
            cityOrder + PlaceGrid.order(villages.map { coordinates[$0] }, degrees: villageDegrees).map { villages[$0] }
        func ordered<Value>(_ column: inout [Value]) -> [Value] {
            defer { column = [] }
            return order.map { column[$0] }
        }
        self.ids = ordered(&ids)
        self.names = ordered(&names)
        self.contexts = ordered(&contexts)
        self.contextTexts = contextTexts
        self.coordinates = ordered(&coordinates)
        self.reaches = ordered(&reaches)
        self.countries = ordered(&countries)
        self.admin1s = ordered(&admin1s)
        // The division outlines are generalised: St. Louis's centre lies in their Illinois. A photo taken
        // there is in that outline too, and the city must still name it.
        let noDivision = code("")
        locatedDivisions = zip(self.coordinates, self.admin1s).map { coordinate, admin1 in
            let division = boundaries.locate(coordinate)?.division?.division ?? ""
            let located = code(division)
            return located != admin1 ? located : noDivision
        }
        self.codes = codes
        cityGrid = PlaceGrid(Array(self.coordinates[..<cityOrder.count]), degrees: 1, first: 0)
        villageGrid = PlaceGrid(
            Array(self.coordinates[cityOrder.count...]), degrees: villageDegrees, first: cityOrder.count)
        self.boundaries = boundaries
        countryNames = Dictionary(
            regions.filter { $0.admin1.isEmpty }.map { ($0.country, $0.names[0]) },
            uniquingKeysWith: { first, _ in first })
        divisionNames = Dictionary(
            regions.filter { !$0.admin1.isEmpty }.map { ("\($0.country)/\($0.admin1)", $0.names[0]) },
            uniquingKeysWith: { first, _ in first })
    }

    /// How far a place of `population` reaches: 1.5 km for a village of 1,000, 5 km for a town of 15,000,
    /// 20 km for a city of a million, at most `greatestReach`.
    public static func reach(population: Int) -> Double {
        let people = max(Double(population), 1_000)
        guard people >= 15_000 else { return 1.5 + 3.5 * log10(people / 1_000) / log10(15) }
        return min(greatestReach, 5 + 8.3 * log10(people / 15_000))
    }

    /// The reach of the biggest cities, in kilometres.
    public static let greatestReach = 30.0

    /// The place a photo taken at `coordinate` belongs to.
    public func place(for coordinate: Coordinate) -> LocalPlace {
        guard let location = boundaries.locate(coordinate) else { return Self.area(of: coordinate) }
        let country = location.country.country
        // A division GeoNames has no code for cannot be compared with cities': the country decides alone.
        let division = location.division?.division ?? ""
        // A code no place carries matches none.
        let countryCode = codes[country] ?? -1
        let divisionCode = division.isEmpty ? nil : codes[division] ?? -1
        var nearest: (index: Int, distance: Double)?
        forEachCandidate(near: coordinate) { index in
            guard countries[index] == countryCode else { return }
            if let divisionCode, admin1s[index] != divisionCode, locatedDivisions[index] != divisionCode { return }
            // A degree of latitude is 111 km everywhere: most places are ruled out before the trigonometry.
            let reach = reaches[index]
            guard abs(coordinates[index].latitude - coordinate.latitude) * 111 <= reach else { return }
            let distance = coordinate.distance(to: coordinates[index])
            if distance <= reach, distance < nearest?.distance ?? .infinity {
                nearest = (index, distance)
            }
        }
        if let (index, _) = nearest {
            let context = contextTexts[Int(contexts[index])]
            return LocalPlace(
                id: ids[index], shortName: names[index],
                fullName: context.isEmpty ? names[index] : "\(names[index]), \(context)",
                coordinate: coordinates[index])
        }
        let countryName = countryNames[country] ?? location.country.name
        // Shaped as Flickr's place ids (letters, digits, "_"), which `serve` checks at the door.
        let code = String(division.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        // GeoNames' English name ("Bavaria"), else Natural Earth's ("Bayern").
        if let name = divisionNames["\(country)/\(division)"] ?? location.division?.name, !name.isEmpty,
            !code.isEmpty
        {
            return LocalPlace(
                id: "region_\(country)_\(code)", shortName: name, fullName: "\(name), \(countryName)",
                coordinate: nil)
        }
        return LocalPlace(id: "country_\(country)", shortName: countryName, fullName: countryName, coordinate: nil)
    }

    /// The place of a point at sea: its 1° square.
    private static func area(of coordinate: Coordinate) -> LocalPlace {
        let cell = PlaceGrid.cell(coordinate, degrees: 1)
        let name =
            "\(abs(cell.latitude))°\(cell.latitude < 0 ? "S" : "N") "
            + "\(abs(cell.longitude))°\(cell.longitude < 0 ? "W" : "E")"
        let id =
            "area_\(cell.latitude < 0 ? "S" : "N")\(abs(cell.latitude))_\(cell.longitude < 0 ? "W" : "E")"
            + "\(abs(cell.longitude))"
        return LocalPlace(id: id, shortName: name, fullName: name, coordinate: nil)
    }

    /// Calls `body` with each city in the cells within `greatestReach` of `coordinate`, then each village
    /// in the cells within a village's reach, without gathering them: most of naming a photo near cities
    /// is this walk.
    private func forEachCandidate(near coordinate: Coordinate, _ body: (Int) -> Void) {
        cityGrid.forEach(near: coordinate, reach: Self.greatestReach, body)
        villageGrid.forEach(near: coordinate, reach: Self.reach(population: 14_999), body)
    }
}

/// A place imported photos belong to, before it has its photo count.
public struct LocalPlace: Sendable, Hashable {
    /// The GeoNames id, "region_US_WA", "country_XX", "area_S31_W141" or `LocalPlace.unlocatedID`.
    public var id: String
    /// "Arezzo".
    public var shortName: String
    /// "Arezzo, Italy": the title before the first comma, the subtitle after, as for Flickr's places.
    public var fullName: String
    /// The city's centre; nil for a country or area (its photos' mean is shown).
    public var coordinate: Coordinate?

    /// A place; `coordinate` nil for a country, a division or an area.
    public init(id: String, shortName: String, fullName: String, coordinate: Coordinate?) {
        self.id = id
        self.shortName = shortName
        self.fullName = fullName
        self.coordinate = coordinate
    }

    /// The place of the photos without a location, listed last.
    public static let unlocatedID = "unlocated"
    /// Its entry.
    public static let unlocated = LocalPlace(
        id: unlocatedID, shortName: "Without a location",
        fullName: "Without a location", coordinate: nil)
}

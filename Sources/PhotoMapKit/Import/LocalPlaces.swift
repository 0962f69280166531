import Foundation

/// Groups imported photos into places as Flickr does. A located photo's country and division are the
/// boundaries it lies in (`BoundaryLookup`); it belongs to the nearest populated place of the gazetteer
/// (GeoNames places of 1,000 people or more: cities and villages) of that country and division that it
/// lies within — a distance that grows with the place's size — its GeoNames id the place's id. A photo near no such city belongs
/// to its division ("region_US_WA"), else to its country ("country_US"); one out at sea to a place named
/// for its 1° square.
public struct LocalPlaces: Sendable {
    private struct City: Sendable {
        let id: String, name: String, country: String, admin1: String, context: String
        /// The division code of the outline its centre lies in, where that is not its own `admin1`.
        var locatedDivision = ""
        let coordinate: Coordinate
        /// `LocalPlaces.reach(population:)` of it, in kilometres.
        let reach: Double
    }

    private let cities: [City]
    /// City indices by 1° cell, "lat/lon".
    private let cells: [Cell: [Int]]
    /// Villages (under 15,000 people, reaching at most 5 km) by cell of `villageDegrees`: a point looks
    /// only at the few cells around it, not at every village of 30 km around.
    private let villageCells: [Cell: [Int]]
    /// The side of a village cell, in degrees (11 km of latitude: more than a village's reach).
    private static let villageDegrees = 0.1
    private let countryNames: [String: String]
    private let boundaries: BoundaryLookup

    private struct Cell: Hashable, Sendable {
        let latitude: Int, longitude: Int
    }

    /// The gazetteer folder's cities, villages, regions (GeoNames, CC BY 4.0) and boundaries (Natural Earth, public
    /// domain): Fixtures/gazetteer.
    public init(gazetteer folder: URL) throws {
        var cities: [City] = []
        var cells: [Cell: [Int]] = [:]
        var villageCells: [Cell: [Int]] = [:]
        let regions = try Gazetteer.forEachCity(in: folder, villages: true) { entry in
            if entry.population < 15_000 {
                villageCells[Self.cell(entry.coordinate, degrees: Self.villageDegrees), default: []].append(
                    cities.count)
            } else {
                cells[Self.cell(entry.coordinate), default: []].append(cities.count)
            }
            cities.append(
                City(
                    id: entry.id, name: entry.name, country: entry.country, admin1: entry.admin1,
                    context: entry.context, coordinate: entry.coordinate,
                    reach: Self.reach(population: entry.population)))
        }
        let boundaries = BoundaryLookup(try Boundaries.load(folder.appendingPathComponent("boundaries.bin")))
        // The division outlines are generalised: St. Louis's centre lies in their Illinois. A photo taken
        // there is in that outline too, and the city must still name it.
        for index in cities.indices {
            let division = boundaries.locate(cities[index].coordinate)?.division?.division ?? ""
            if division != cities[index].admin1 { cities[index].locatedDivision = division }
        }
        self.cities = cities
        self.cells = cells
        self.villageCells = villageCells
        self.boundaries = boundaries
        countryNames = Dictionary(
            regions.filter { $0.admin1.isEmpty }.map { ($0.country, $0.names[0]) },
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
        var nearest: (index: Int, distance: Double)?
        forEachCandidate(near: coordinate) { index in
            let city = cities[index]
            guard city.country == country,
                division.isEmpty || city.admin1 == division || city.locatedDivision == division
            else { return }
            // A degree of latitude is 111 km everywhere: most cities are ruled out before the trigonometry.
            guard abs(city.coordinate.latitude - coordinate.latitude) * 111 <= city.reach else { return }
            let distance = coordinate.distance(to: city.coordinate)
            if distance <= city.reach, distance < nearest?.distance ?? .infinity {
                nearest = (index, distance)
            }
        }
        if let (index, _) = nearest {
            let city = cities[index]
            return LocalPlace(
                id: city.id, shortName: city.name,
                fullName: ([city.name] + (city.context.isEmpty ? [] : [city.context]))
                    .joined(separator: ", "),
                coordinate: city.coordinate)
        }
        let countryName = countryNames[country] ?? location.country.name
        // Shaped as Flickr's place ids (letters, digits, "_"), which `serve` checks at the door.
        let code = String(division.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        if let name = location.division?.name, !name.isEmpty, !code.isEmpty {
            return LocalPlace(
                id: "region_\(country)_\(code)", shortName: name, fullName: "\(name), \(countryName)",
                coordinate: nil)
        }
        return LocalPlace(id: "country_\(country)", shortName: countryName, fullName: countryName, coordinate: nil)
    }

    /// The place of a point at sea: its 1° square.
    private static func area(of coordinate: Coordinate) -> LocalPlace {
        let cell = Self.cell(coordinate)
        let name =
            "\(abs(cell.latitude))°\(cell.latitude < 0 ? "S" : "N") "
            + "\(abs(cell.longitude))°\(cell.longitude < 0 ? "W" : "E")"
        let id =
            "area_\(cell.latitude < 0 ? "S" : "N")\(abs(cell.latitude))_\(cell.longitude < 0 ? "W" : "E")"
            + "\(abs(cell.longitude))"
        return LocalPlace(id: id, shortName: name, fullName: name, coordinate: nil)
    }

    /// Calls `body` with each city in the cells within `greatestReach` of `coordinate` (wider in longitude
    /// near the poles), and each village in the village cells within a village's reach, without gathering
    /// them: most of naming a photo near cities is this walk.
    private func forEachCandidate(near coordinate: Coordinate, _ body: (Int) -> Void) {
        walk(cells, degrees: 1, reach: Self.greatestReach, near: coordinate, body)
        walk(villageCells, degrees: Self.villageDegrees, reach: Self.reach(population: 14_999), near: coordinate, body)
    }

    private func walk(
        _ cells: [Cell: [Int]], degrees: Double, reach: Double, near coordinate: Coordinate, _ body: (Int) -> Void
    ) {
        let centre = Self.cell(coordinate, degrees: degrees)
        let latitudeSpan = Int((reach / (111 * degrees)).rounded(.up))
        let shrink = max(cos(coordinate.latitude * .pi / 180), 0.02)
        let columns = Int((360 / degrees).rounded())
        let longitudeSpan = min(columns / 2, Int((reach / (111 * degrees * shrink)).rounded(.up)))
        for latitude in (centre.latitude - latitudeSpan)...(centre.latitude + latitudeSpan) {
            for step in -longitudeSpan...longitudeSpan {
                // Wrapped across the antimeridian: columns run from -180° on.
                let half = columns / 2
                let longitude = ((centre.longitude + step + half) % columns + columns) % columns - half
                for index in cells[Cell(latitude: latitude, longitude: longitude)] ?? [] { body(index) }
            }
        }
    }

    /// The cell of `degrees` a side holding `coordinate`: rows from the equator, columns from 0° (-180° ends
    /// in the last column before 180°).
    private static func cell(_ coordinate: Coordinate, degrees: Double = 1) -> Cell {
        let columns = Int((360 / degrees).rounded())
        return Cell(
            latitude: Int((coordinate.latitude / degrees).rounded(.down)),
            longitude: min(Int((coordinate.longitude / degrees).rounded(.down)), columns / 2 - 1))
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

    /// The place of the photos without a location, listed last.
    public static let unlocatedID = "unlocated"
    /// Its entry.
    public static let unlocated = LocalPlace(
        id: unlocatedID, shortName: "Without a location",
        fullName: "Without a location", coordinate: nil)
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Groups imported photos into places as Flickr does. A located photo's country and division are the
/// boundaries it lies in (`BoundaryLookup`); it belongs to the nearest populated place of the gazetteer
/// (GeoNames places of 1,000 people or more: cities and villages) of that country and division that it
/// lies within — a distance that grows with the place's size — its GeoNames id the place's id. A photo near no such city belongs
/// to its division ("region_US_WA"), else to its country ("country_US"); one out at sea to a place named
/// for its 1° square.
public struct LocalPlaces: Sendable {
    // The places (GeoNames cities, then villages), numbered in their grids' order, a column each: arrays
    // when built from the TSV files (`LocalPlaces+Sources.swift`), parts of the mapped places.bin when
    // prebuilt (`LocalPlaces+File.swift`). What the walk reads of each is kept apart from the names: a
    // point looks at a few hundred places and names one.
    let ids: FlatStrings
    let names: FlatStrings
    /// "Bavaria, Germany", by number in `contextTexts`: one text for all the places of a division (each
    /// place's own full name held 12 MB), "Munich, " put before it when a photo is named.
    let contexts: FlatColumn<Int32>
    let contextTexts: FlatStrings
    let latitudes: FlatColumn<Double>
    let longitudes: FlatColumn<Double>
    /// `LocalPlaces.reach(population:)` of each, in kilometres.
    let reaches: FlatColumn<Double>
    /// Country and admin1 codes as numbers of `codes`, compared without comparing text.
    let countries: FlatColumn<Int32>
    let admin1s: FlatColumn<Int32>
    /// The division code of the outline a place's centre lies in, where that is not its own `admin1`.
    let locatedDivisions: FlatColumn<Int32>
    let codes: [String: Int32]
    /// Places of 15,000 people or more (reaching up to `greatestReach`) by 1° cell.
    let cityGrid: PlaceGrid
    /// Villages (under 15,000 people, reaching at most 5 km) by cell of 0.1° (11 km of latitude, more than
    /// a village's reach): a point looks only at the few cells around it, not at every village of 30 km around.
    let villageGrid: PlaceGrid
    let countryNames: [String: String]
    /// GeoNames' English names of the divisions, by "country/admin1": "DE/02" Bavaria.
    let divisionNames: [String: String]
    let boundaries: BoundaryLookup

    /// The grids' cell sizes, in degrees.
    static let cityDegrees = 1.0
    static let villageDegrees = 0.1

    /// The gazetteer folder's places: from its prebuilt places.bin (mapped: a start of milliseconds) when
    /// that was made from the folder's files by this version, else built from the files themselves
    /// (`init(sources:)`, about a second), said once on stderr. `PHOTOMAP_PLACES_FROM_SOURCES=1` builds
    /// from the files without a word: the baseline `bench/place-start.sh` measures against.
    public init(gazetteer folder: URL) throws {
        if ProcessInfo.processInfo.environment["PHOTOMAP_PLACES_FROM_SOURCES"] != "1" {
            do {
                self = try Self(prebuilt: folder)
                return
            } catch {
                Self.noteSlowStart(folder.appendingPathComponent(PlaceFile.name), error)
            }
        }
        try self.init(sources: folder)
    }

    /// Whether the slow start was said already: once a process is enough.
    private static let noted = Locked(false)

    private static func noteSlowStart(_ file: URL, _ refusal: PlaceFile.Refusal) {
        let first = noted.withLock { noted in
            defer { noted = true }
            return !noted
        }
        guard first else { return }
        FileHandle.standardError.write(
            Data(
                ("photomap: note: \(file.path) \(refusal.reason), so the places are built from the gazetteer's "
                    + "files at every start (about a second); run scripts/setup to make it\n").utf8))
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
            let latitude = latitudes[index]
            guard abs(latitude - coordinate.latitude) * 111 <= reach,
                let centre = Coordinate(latitude: latitude, longitude: longitudes[index])
            else { return }
            let distance = coordinate.distance(to: centre)
            if distance <= reach, distance < nearest?.distance ?? .infinity {
                nearest = (index, distance)
            }
        }
        if let (index, _) = nearest {
            let context = contextTexts[Int(contexts[index])]
            return LocalPlace(
                id: ids[index], shortName: names[index],
                fullName: context.isEmpty ? names[index] : "\(names[index]), \(context)",
                coordinate: Coordinate(latitude: latitudes[index], longitude: longitudes[index]))
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

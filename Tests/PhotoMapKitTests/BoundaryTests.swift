// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Boundaries: a photo's country and division from Natural Earth's outlines")
struct BoundaryTests {
    static let gazetteer = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/gazetteer")
    /// Read and indexed once for the suite (seconds in a debug build).
    static let loaded = Result { try Boundaries.load(gazetteer.appendingPathComponent("boundaries.bin")) }
    static let lookup = loaded.map(BoundaryLookup.init)
    static let places = Result { try LocalPlaces(gazetteer: gazetteer) }

    /// A point where the nearest city is across a border, and where it really is.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let latitude: Double, longitude: Double
        /// ISO country and GeoNames admin1 code ("" for none).
        let country: String, division: String

        init(_ description: String, _ latitude: Double, _ longitude: Double, _ country: String, _ division: String) {
            self.description = description
            self.latitude = latitude
            self.longitude = longitude
            self.country = country
            self.division = division
        }
    }

    @Test(
        "enclaves, exclaves, microstates, state lines and river borders",
        arguments: [
            // An exclave: nearest city Tsawwassen (Delta), Canada, 3 km away.
            Case("Point Roberts", 48.985, -123.065, "US", "WA"),
            Case("Tsawwassen, across the line", 49.01, -123.08, "CA", "02"),
            // The Narva river: Ivangorod is Russia, Narva (the nearest city) Estonia.
            Case("Ivangorod", 59.37, 28.23, "RU", "42"),
            Case("Narva", 59.377, 28.17, "EE", "03"),
            // New Mexico, though El Paso, Texas is nearest.
            Case("Santa Teresa", 31.856, -106.639, "US", "NM"),
            Case("El Paso", 31.7619, -106.485, "US", "TX"),
            Case("Ciudad Juárez, across the Rio Grande", 31.72, -106.45, "MX", "06"),
            // Reached by land only through Canada.
            Case("Northwest Angle", 49.33, -95.07, "US", "MN"),
            // A Spanish town inside France, and France around it.
            Case("Llívia", 42.4635, 1.981, "ES", "56"),
            Case("Saillagouse, France beside Llívia", 42.457, 2.037, "FR", "76"),
            // Austria, reached by road only from Germany.
            Case("Kleinwalsertal", 47.335, 10.19, "AT", "08"),
            Case("Oberstdorf, Germany beside it", 47.41, 10.28, "DE", "02"),
            // 1:10m has no Baarle-Hertog enclaves: Baarle-Nassau's north is the Netherlands, Merksplas Belgium.
            Case("Baarle-Nassau", 51.4475, 4.928, "NL", "06"),
            Case("Merksplas, Belgium south of Baarle", 51.36, 4.86, "BE", "VLG"),
            // Microstates, each within a few kilometres of a bigger neighbour's towns.
            Case("Monaco", 43.7384, 7.4246, "MC", "00"),
            Case("San Marino", 43.9356, 12.4473, "SM", "07"),
            Case("Vatican City", 41.9029, 12.4534, "VA", ""),
            Case("Rome beside it", 41.9, 12.47, "IT", "07"),
            // A straight US state line through one city, and one through Texarkana.
            Case("Kansas City, Kansas side", 38.95, -94.63, "US", "KS"),
            Case("Kansas City, Missouri side", 38.95, -94.59, "US", "MO"),
            Case("Texarkana, Texas", 33.43, -94.06, "US", "TX"),
            Case("Texarkana, Arkansas", 33.43, -94.03, "US", "AR"),
            // River borders.
            Case("Windsor, across the Detroit River", 42.30, -83.03, "CA", "08"),
            Case("Detroit", 42.33, -83.05, "US", "MI"),
            Case("Słubice, across the Oder", 52.345, 14.585, "PL", "76"),
            Case("Frankfurt (Oder)", 52.34, 14.54, "DE", "11"),
        ])
    func borders(_ point: Case) throws {
        let coordinate = try #require(Coordinate(latitude: point.latitude, longitude: point.longitude))
        let location = try #require(try Self.lookup.get().locate(coordinate))
        #expect(location.country.country == point.country)
        #expect((location.division?.division ?? "") == point.division)
    }

    @Test("a point's place is a city of its own country and division, else its division, else its country")
    func naming() throws {
        let places = try Self.places.get()
        func place(_ latitude: Double, _ longitude: Double) throws -> LocalPlace {
            places.place(for: try #require(Coordinate(latitude: latitude, longitude: longitude)))
        }
        // Point Roberts's own village (GeoNames' places of 1,000 people or more) names it, in its state, not
        // Tsawwassen's Canada; so do Santa Teresa's, and Ivangorod's, not Narva's Estonia.
        let pointRoberts = try place(48.985, -123.065)
        #expect(pointRoberts.id == "5807107")
        #expect(pointRoberts.fullName == "Point Roberts, Washington, United States")
        #expect(try place(31.856, -106.639).fullName == "Santa Teresa, New Mexico, United States")
        #expect(try place(59.37, 28.23).fullName == "Ivangorod, Leningradskaya oblast', Russia")
        // Villages the issue names, each after itself, not the town nearby.
        let giethoorn = try place(52.7405, 6.0785)
        #expect(
            giethoorn.id == "2755517" && giethoorn.fullName == "Giethoorn, Overijssel, The Netherlands", "\(giethoorn)")
        #expect(try place(46.0213, 7.7470).fullName == "Zermatt, Valais, Switzerland")
        #expect(try place(40.6285, 14.4850).fullName == "Positano, Campania, Italy")
        // Where no place reaches: the state, the division.
        #expect(try place(39.2, -116.9).fullName == "Nevada, United States")
        #expect(try place(61.5, 47.5).id.hasPrefix("region_RU_"))
        // A city of the right side still names its photos, with its GeoNames id as before.
        #expect(try place(59.377, 28.17).id == "590031")  // Narva
        #expect(try place(52.345, 14.585).id == "3085495")  // Słubice, not Frankfurt (Oder)
        #expect(try place(31.7619, -106.485).id == "5520993")  // El Paso
        // The generalised division outlines put St. Louis's centre in Illinois: still St. Louis, Missouri.
        #expect(try place(38.62727, -90.19789).fullName == "St. Louis, Missouri, United States")
        // Natural Earth's divisions of Spain are provinces, finer than GeoNames': each takes the GeoNames code
        // most of its places carry, so a point between towns is in Catalonia; Llívia, the Spanish exclave, is
        // named after itself.
        #expect(try place(42.4635, 1.981).fullName == "Llívia, Catalonia, Spain")
        let catalonia = try place(42.30, 1.30)
        #expect(catalonia.id == "region_ES_56" && catalonia.fullName == "Catalonia, Spain", "\(catalonia)")
    }

    @Test("divisions outside the US have GeoNames' English names, in a place's name and as places of their own")
    func divisionNames() throws {
        let places = try Self.places.get()
        func place(_ latitude: Double, _ longitude: Double) throws -> LocalPlace {
            places.place(for: try #require(Coordinate(latitude: latitude, longitude: longitude)))
        }
        // Each place's own division, in English (Bavaria, not Natural Earth's Bayern), its id as before.
        let munich = try place(48.1374, 11.5755)
        #expect(munich.id == "2867714" && munich.fullName == "Munich, Bavaria, Germany", "\(munich)")
        #expect(try place(43.7064, -79.3986).fullName == "Toronto, Ontario, Canada")
        #expect(try place(35.0211, 135.7539).fullName == "Kyoto, Kyoto, Japan")
        #expect(try place(-23.5475, -46.6361).fullName == "São Paulo, São Paulo, Brazil")
        #expect(try place(-13.5319, -71.9670).fullName == "Cusco, Cusco, Peru")
        #expect(try place(-54.8108, -68.3159).fullName == "Ushuaia, Tierra del Fuego, Argentina")
        #expect(try place(-33.0136, 151.5937).fullName == "Toronto, New South Wales, Australia")
        // The US states keep their names.
        #expect(try place(40.4642, -80.6009).fullName == "Toronto, Ohio, United States")
        // Far from any place: the division, named in English, where before Natural Earth's name or the country.
        let bavaria = try place(49.0, 13.3)
        #expect(bavaria.id.hasPrefix("region_DE_") || bavaria.id.allSatisfy(\.isNumber), "\(bavaria)")
        #expect(bavaria.fullName.hasSuffix("Bavaria, Germany"), "\(bavaria)")
        let tuscany = try place(43.2, 11.3)
        #expect(tuscany.id == "region_IT_16" && tuscany.fullName == "Tuscany, Italy", "\(tuscany)")
    }

    @Test("a harbour just off a coast takes the country within 5 km; the open sea none")
    func coasts() throws {
        let boundaries = try Self.loaded.get()
        let lookup = try Self.lookup.get()
        let countries = BoundaryIndex(boundaries.countries)
        // Off Monaco's harbour and off Ipanema: in no polygon, within 5 km of one.
        for (latitude, longitude, country) in [(43.72, 7.43, "MC"), (-23.0, -43.18, "BR")] {
            let coordinate = try #require(Coordinate(latitude: latitude, longitude: longitude))
            #expect(countries.region(containing: coordinate) == nil)
            let nearest = try #require(countries.nearestRegion(to: coordinate, within: BoundaryLookup.coastReach))
            #expect(nearest.kilometres > 0 && nearest.kilometres <= 5)
            #expect(lookup.locate(coordinate)?.country.country == country)
        }
        #expect(lookup.locate(try #require(Coordinate(latitude: -23.05, longitude: -43.17))) == nil)
        #expect(lookup.locate(try #require(Coordinate(latitude: -30.5, longitude: -140.2))) == nil)
    }

    @Test("a boundaries file that fails its checksum, or is cut short, is refused with a clear error")
    func checksum() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("photomap-boundaries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: Self.gazetteer.appendingPathComponent("boundaries.bin"))
        // One coordinate's byte changed in the middle of the file.
        bytes[bytes.count / 2] ^= 0x01
        let damaged = folder.appendingPathComponent("boundaries.bin")
        try bytes.write(to: damaged)
        let error = try #require(throws: LocationError.self) { try Boundaries.load(damaged) }
        #expect(error.description.contains("SHA-256 does not match"))
        #expect(error.description.contains(damaged.path))
        try bytes.prefix(1_000).write(to: damaged)
        #expect(throws: LocationError.self) { try Boundaries.load(damaged) }
        try Data("PMBOUND1".utf8).write(to: damaged)
        #expect(throws: LocationError.self) { try Boundaries.load(damaged) }
    }

    /// A file of `body` after the magic, with a SHA-256 that matches.
    static func file(_ body: [UInt8]) -> [UInt8] {
        let bytes = Array("PMBOUND1".utf8) + body
        return bytes + SHA256.digest(bytes)
    }

    @Test("a file whose checksum matches but whose contents are malformed is refused, never half read")
    func malformed() throws {
        // One country "XX" with one ring of three points, then no divisions.
        let triangle: [UInt8] = [1, 2, 88, 88, 0, 1, 65, 1, 3, 0, 0, 2, 0, 0, 2]
        let parsed = try Boundaries(Self.file(triangle + [0]))
        #expect(parsed.countries.regions == [Boundaries.Region(country: "XX", division: "", name: "A")])
        #expect(parsed.countries.longitudeSteps.count == 4)  // closed
        #expect(parsed.divisions.regions.isEmpty)
        let cases: [(String, [UInt8])] = [
            ("a count larger than the file", [0xFF, 0xFF, 0xFF, 0x7F]),
            ("a ring of two points", [1, 2, 88, 88, 0, 1, 65, 1, 2, 0, 0, 2, 0, 0]),
            ("cut short inside a varint", [1, 2, 88, 88, 0, 1, 65, 1, 3, 0x80]),
            ("a point off the globe", [1, 2, 88, 88, 0, 1, 65, 1, 3, 0, 0, 0xFE, 0xFF, 0xFF, 0x0F, 0, 2, 0, 0]),
            ("bytes after the divisions", triangle + [0, 0]),
            ("no divisions", triangle),
        ]
        for (what, body) in cases {
            #expect(throws: Boundaries.Malformed.self, "\(what)") { try Boundaries(Self.file(body)) }
        }
    }
}

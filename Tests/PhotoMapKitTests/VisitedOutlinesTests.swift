// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import Testing

@testable import PhotoMapKit

/// The places you have been: covers, the outlines found for them in the package's boundaries, and
/// even-odd rings nested into GeoJSON's polygons.
@Suite("Visited outlines")
struct VisitedOutlinesTests {
    static func photo(_ id: String, _ taken: String, _ latitude: Double, _ longitude: Double, _ names: [String])
        -> TripPhoto?
    {
        TripPhoto(
            id: id, taken: taken, coordinate: Coordinate(latitude: latitude, longitude: longitude), town: names[0],
            division: names[1], country: names[2], place: "place-\(names[0])")
    }

    static let photos = [
        photo("b", "2024-07-10 09:00:00", 43.7696, 11.2558, ["Florence", "Tuscany", "Italy"]),
        photo("a", "2024-07-12 12:00:00", 43.4633, 11.8796, ["Arezzo", "Tuscany", "Italy"]),
        photo("c", "2024-07-12 12:00:00", 43.4640, 11.8800, ["Arezzo", "Tuscany", "Italy"]),
        photo("d", "2024-03-01 10:00:00", 46.0569, 14.5058, ["Ljubljana", "Ljubljana", "Slovenia"]),
    ].compactMap { $0 }

    @Test("A place's cover is its last photo taken, the greater id of two taken at once")
    func covers() throws {
        let tree = VisitedPlace.tree(Self.photos)
        let italy = try #require(tree.first)
        #expect(italy.cover.id == "c" && italy.children.first?.cover.id == "c")
        let towns = try #require(italy.children.first?.children)
        #expect(towns.map(\.name) == ["Arezzo", "Florence"])
        #expect(towns.map(\.cover.id) == ["c", "b"] && towns.map(\.cover.place) == ["place-Arezzo", "place-Florence"])
    }

    @Test("Each country and region gets the outline its cover lies in, holding its photos")
    func outlines() throws {
        let outlines = try #require(VisitedOutlines.bundled, "Fixtures/gazetteer/boundaries.bin")
        let areas = outlines.areas(VisitedPlace.tree(Self.photos))
        #expect(areas.map(\.place.name) == ["Italy", "Tuscany", "Slovenia", "Ljubljana"])
        #expect(areas.map(\.country) == [nil, "Italy", nil, "Slovenia"])
        let florence = GridPoint(x: 1_125_580, y: 4_376_960)
        let ljubljana = GridPoint(x: 1_450_580, y: 4_605_690)
        func holds(_ area: VisitedOutlines.Area, _ point: GridPoint) -> Bool {
            area.polygons.joined().filter { ring in
                RingNesting.contains(
                    ring.map { GridPoint(x: Int32(($0[0] * 1e5).rounded()), y: Int32(($0[1] * 1e5).rounded())) }, point)
            }.count % 2 == 1
        }
        #expect(holds(areas[0], florence) && holds(areas[1], florence) && !holds(areas[1], ljubljana))
        #expect(holds(areas[2], ljubljana) && !holds(areas[2], florence))
    }

    @Test("Rings nest: an island in a lake in an island is a polygon of its own; holes turn clockwise")
    func nesting() {
        func square(_ size: Int32, clockwise: Bool = false) -> [GridPoint] {
            let corners = [(-size, -size), (size, -size), (size, size), (-size, size), (-size, -size)].map {
                GridPoint(x: $0.0, y: $0.1)
            }
            return clockwise ? corners.reversed() : corners
        }
        let polygons = RingNesting.polygons([square(10, clockwise: true), square(6), square(2), square(1)])
        #expect(polygons.count == 2)
        #expect(polygons.map(\.count) == [2, 2])
        #expect(polygons[0][0] == square(10) && polygons[0][1] == square(6, clockwise: true))
        #expect(polygons[1][0] == square(2) && polygons[1][1] == square(1, clockwise: true))
    }
}

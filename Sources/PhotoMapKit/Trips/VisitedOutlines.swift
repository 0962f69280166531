// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The outlines of visited countries and regions, from the boundaries import names photos' places by
/// (`Boundaries`, Natural Earth, public domain): each is the outline its cover photo lies in, found as
/// import found it (`BoundaryLookup`), simplified for drawing.
public struct VisitedOutlines: Sendable {
    private let lookup: BoundaryLookup
    private let countries: Rings
    private let divisions: Rings

    /// How far an outline may stray from the boundary when simplified, in degrees (about 2 km: finer
    /// than the 1:110m world outline the maps lay them on).
    static let tolerance = 0.02

    /// The outlines of `boundaries`.
    public init(_ boundaries: Boundaries) {
        lookup = BoundaryLookup(boundaries)
        countries = Rings(boundaries.countries)
        divisions = Rings(boundaries.divisions)
    }

    /// The boundaries of the gazetteer folder `folder` (Fixtures/gazetteer, or the installed one).
    public static func load(gazetteer folder: URL) throws(LocationError) -> VisitedOutlines {
        VisitedOutlines(try Boundaries.load(folder.appendingPathComponent("boundaries.bin")))
    }

    /// The package's own boundaries, read on first use; nil when they cannot be found or read.
    public static let bundled: VisitedOutlines? = FixtureSource.locateFixtures(
        containing: "gazetteer/boundaries.bin"
    ).flatMap { try? load(gazetteer: $0.appendingPathComponent("gazetteer")) }

    /// A visited country or region and its outline.
    public struct Area: Sendable {
        /// The place, its children included.
        public var place: VisitedPlace
        /// Its country's name, for a region; nil for a country.
        public var country: String?
        /// Its outline as a GeoJSON MultiPolygon's coordinates: polygons of rings of [longitude, latitude],
        /// outer rings counter-clockwise and holes clockwise (RFC 7946); empty when none was found.
        public var polygons: [[[[Double]]]]
    }

    /// Each country of `visited` and, after it, each of its regions, with their outlines.
    public func areas(_ visited: [VisitedPlace]) -> [Area] {
        visited.flatMap { country -> [Area] in
            let location = country.cover.coordinate.flatMap(lookup.locate)
            let outline = location.map { countries.polygons(of: $0.country) } ?? []
            return [Area(place: country, country: nil, polygons: outline)]
                + country.children.map { region -> Area in
                    let division = region.cover.coordinate.flatMap(lookup.locate)?.division
                    let outline = division.map { divisions.polygons(of: $0) } ?? []
                    return Area(place: region, country: country.name, polygons: outline)
                }
        }
    }

    /// One layer's rings by the region they belong to.
    private struct Rings: Sendable {
        let layer: Boundaries.Layer
        let ringsOf: [Boundaries.Region: [Int]]

        init(_ layer: Boundaries.Layer) {
            self.layer = layer
            var ringsOf: [Boundaries.Region: [Int]] = [:]
            for (ring, region) in layer.ringRegions.enumerated() {
                ringsOf[layer.regions[region], default: []].append(ring)
            }
            self.ringsOf = ringsOf
        }

        /// The outline of `region`, simplified, its even-odd rings nested into polygons with their holes.
        func polygons(of region: Boundaries.Region) -> [[[[Double]]]] {
            // Steps of 1/10,000° are tens of the grid's 1/100,000°.
            let scale = Int32(GridPoint.perDegree / Int(Boundaries.quantum))
            let tolerance = VisitedOutlines.tolerance * Double(GridPoint.perDegree)
            let rings: [[GridPoint]] = (ringsOf[region] ?? []).compactMap { ring in
                let points = (layer.ringStarts[ring]..<layer.ringStarts[ring + 1]).map {
                    GridPoint(x: layer.longitudeSteps[$0] * scale, y: layer.latitudeSteps[$0] * scale)
                }
                let kept = LineSimplification.simplified(points, tolerance: tolerance)
                return kept.count >= 4 ? kept : nil
            }
            return RingNesting.polygons(rings).map { polygon in
                polygon.map { ring in
                    ring.map {
                        [Double($0.x) / Double(GridPoint.perDegree), Double($0.y) / Double(GridPoint.perDegree)]
                    }
                }
            }
        }
    }
}

/// Even-odd rings as polygons: a ring inside an odd number of others is a hole of the innermost ring
/// holding it; the others are outer rings. Outer rings are turned counter-clockwise, holes clockwise.
enum RingNesting {
    /// The polygons of `rings` (each closed), each its outer ring then its holes.
    static func polygons(_ rings: [[GridPoint]]) -> [[[GridPoint]]] {
        let bounds = rings.map { ring in
            (
                west: ring.map(\.x).min() ?? 0, east: ring.map(\.x).max() ?? 0,
                south: ring.map(\.y).min() ?? 0, north: ring.map(\.y).max() ?? 0
            )
        }
        // The rings holding each ring's first point.
        let holders = rings.indices.map { index -> [Int] in
            let point = rings[index][0]
            return rings.indices.filter { other in
                let box = bounds[other]
                return other != index && point.x >= box.west && point.x <= box.east && point.y >= box.south
                    && point.y <= box.north && contains(rings[other], point)
            }
        }
        var polygons: [[[GridPoint]]] = []
        var polygonOf: [Int: Int] = [:]
        for index in rings.indices where holders[index].count % 2 == 0 {
            polygonOf[index] = polygons.count
            polygons.append([oriented(rings[index], counterClockwise: true)])
        }
        for index in rings.indices where holders[index].count % 2 == 1 {
            // The innermost holder is the one held by all the others.
            guard let parent = holders[index].max(by: { holders[$0].count < holders[$1].count }),
                let polygon = polygonOf[parent]
            else { continue }
            polygons[polygon].append(oriented(rings[index], counterClockwise: false))
        }
        return polygons
    }

    /// Whether `point` lies inside `ring` (crossings of a ray to the east).
    static func contains(_ ring: [GridPoint], _ point: GridPoint) -> Bool {
        var inside = false
        let (x, y) = (Double(point.x), Double(point.y))
        for index in 1..<ring.count {
            let (a, b) = (ring[index - 1], ring[index])
            let (ay, by) = (Double(a.y), Double(b.y))
            guard (ay > y) != (by > y) else { continue }
            let crossing = Double(a.x) + (y - ay) / (by - ay) * (Double(b.x) - Double(a.x))
            if x < crossing { inside.toggle() }
        }
        return inside
    }

    /// `ring` running the way asked (its signed area positive when counter-clockwise).
    static func oriented(_ ring: [GridPoint], counterClockwise: Bool) -> [GridPoint] {
        var twiceArea = 0.0
        for index in 1..<ring.count {
            let (a, b) = (ring[index - 1], ring[index])
            twiceArea += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
        }
        return (twiceArea > 0) == counterClockwise ? ring : ring.reversed()
    }
}

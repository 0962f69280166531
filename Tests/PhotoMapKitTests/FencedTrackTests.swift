// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Geofences cut GPS track lines 50 m outside their edge")
struct FencedTrackTests {
    /// 200 m around a home in Ljubljana (issue 51's example): lines stop 251 m from its centre.
    static let home = Geofence(
        name: "home", centre: Coordinate(latitude: 46.06372, longitude: 14.51234)!, radius: 200)

    /// The point `north` metres north and `east` metres east of the fence's centre.
    static func offset(north: Double, east: Double) -> Coordinate {
        let centre = home.centre
        return Coordinate(
            latitude: centre.latitude + north / 111_195,
            longitude: centre.longitude + east / (111_195 * cos(centre.latitude * .pi / 180))) ?? centre
    }

    /// Metres from the fence's centre.
    static func metres(_ point: Coordinate) -> Double { point.distance(to: home.centre) * 1000 }

    /// Whether every point of `lines` lies outside the fence and its margin.
    static func allOutside(_ lines: [[Coordinate]]) -> Bool {
        lines.joined().allSatisfy { metres($0) >= home.radius + Geofence.trackMargin }
    }

    /// Whether `point` lies on the circle where lines stop (outside it, by less than a centimetre).
    static func onMargin(_ point: Coordinate) -> Bool {
        (home.trackRadius..<(home.trackRadius + 0.01)).contains(metres(point))
    }

    @Test("a point inside: the line ends at the margin before it and starts again at the margin after it")
    func pointInside() throws {
        let line = [
            Self.offset(north: -600, east: 0), Self.offset(north: -300, east: 0), Self.offset(north: 0, east: 10),
            Self.offset(north: 300, east: 0), Self.offset(north: 600, east: 0),
        ]
        let pieces = Self.home.cut(line)
        #expect(pieces.count == 2)
        #expect(Self.allOutside(pieces))
        let (before, after) = (try #require(pieces.first), try #require(pieces.last))
        let (exit, entry) = (try #require(before.last), try #require(after.first))
        #expect(Array(before.dropLast()) == Array(line.prefix(2)) && Self.onMargin(exit))
        #expect(Array(after.dropFirst()) == Array(line.suffix(2)) && Self.onMargin(entry))
        // The ends lie on the segments they cut: straight south and north of the centre (10 m east at most).
        #expect(exit.latitude < Self.home.centre.latitude && entry.latitude > Self.home.centre.latitude)
    }

    @Test("a segment between two points outside that passes through the fence is cut where it crosses")
    func crossing() throws {
        let (west, east) = (Self.offset(north: 50, east: -2_000), Self.offset(north: 50, east: 3_000))
        let pieces = Self.home.cut([west, east])
        #expect(pieces.count == 2)
        #expect(pieces.first?.first == west && pieces.last?.last == east)
        let exit = try #require(pieces.first?.last), entry = try #require(pieces.last?.first)
        #expect(Self.onMargin(exit) && Self.onMargin(entry))
        #expect(exit.longitude < Self.home.centre.longitude && entry.longitude > Self.home.centre.longitude)
        // A segment passing by beyond the margin is left whole.
        let by = [Self.offset(north: 300, east: -2_000), Self.offset(north: 300, east: 3_000)]
        #expect(Self.home.cut(by) == [by])
    }

    @Test("a line wholly inside the fence, or inside its margin, leaves nothing")
    func entirelyInside() {
        let inside = (0..<20).map { Self.offset(north: Double($0) * 5, east: Double($0) * -4) }
        #expect(Self.home.cut(inside).isEmpty)
        let inMargin = [Self.offset(north: 220, east: 0), Self.offset(north: 0, east: 240)]
        #expect(Self.home.cut(inMargin).isEmpty)
        #expect([Self.home].shown(TrackLines([inside, inMargin])).isEmpty)
    }

    @Test("the margin: a point 30 m past the edge goes, one 60 m past it stays, a line far away is untouched")
    func margin() throws {
        let line = [
            Self.offset(north: 400, east: 0), Self.offset(north: 260, east: 0), Self.offset(north: 230, east: 0),
            Self.offset(north: 260, east: 20), Self.offset(north: 400, east: 20),
        ]
        let pieces = Self.home.cut(line)
        #expect(pieces.count == 2 && Self.allOutside(pieces))
        #expect(pieces.first?.prefix(2) == line.prefix(2) && pieces.last?.suffix(2) == line.suffix(2))
        let far = [Self.offset(north: 5_000, east: 0), Self.offset(north: 6_000, east: 100)]
        #expect(Self.home.cut(far) == [far])
        #expect([Self.home].shown(TrackLines([far])) == TrackLines([far]))
        // A fence of 10 km near the pole: the margin holds in metres, not degrees.
        let polar = Geofence(
            name: "hut", centre: try #require(Coordinate(latitude: 78.22, longitude: 15.65)), radius: 10_000)
        let across = [
            try #require(Coordinate(latitude: 78.22, longitude: 14.8)),
            try #require(Coordinate(latitude: 78.22, longitude: 16.5)),
        ]
        let cut = polar.cut(across)
        #expect(cut.count == 2)
        #expect(cut.joined().allSatisfy { $0.distance(to: polar.centre) * 1000 >= 10_050 })
    }

    @Test("two fences: a line is cut by each, whichever comes first")
    func twoFences() {
        let other = Geofence(name: "school", centre: Self.offset(north: 0, east: 1_000), radius: 100)
        let line = (0...40).map { Self.offset(north: 5, east: -1_000 + Double($0) * 75) }
        let cut = [Self.home, other].shown(TrackLines([line]))
        #expect(cut == [other, Self.home].shown(TrackLines([line])))
        #expect(cut.lines.count == 3)
        #expect(Self.allOutside(cut.lines))
        #expect(cut.lines.joined().allSatisfy { $0.distance(to: other.centre) * 1000 >= 150 })
    }

    @Test("a drawing simplified to a chord across the fence is cut again: no drawn point within the margin")
    func simplifiedChordIsCut() throws {
        // A walk round the fence at 400 m, from 2 km west of it to 2 km east: cut, every point stays; drawn
        // in 2 points, Douglas–Peucker keeps the ends, and their chord passes 20 m from the centre unless
        // the drawing is cut again.
        let round = (0...180).map { step -> Coordinate in
            let angle = Double(step) * .pi / 180
            return Self.offset(north: 400 * sin(angle), east: -400 * cos(angle))
        }
        let line = [Self.offset(north: -20, east: -2_000)] + round + [Self.offset(north: -20, east: 2_000)]
        let shown = [Self.home].shown(TrackLines([line]))
        #expect(shown.lines == [line])
        let drawing = try #require(shown.drawing(around: [Self.home.centre], margin: 0.05, limit: 2))
        let drawn = drawing.lines.map { numbers in
            stride(from: 0, to: numbers.count, by: 2).reduce(into: [(Int, Int)]()) { points, index in
                let (latitude, longitude) = points.last ?? (0, 0)
                points.append((latitude + numbers[index], longitude + numbers[index + 1]))
            }
        }
        // Every drawn segment, sampled every metre or so, stays outside the fence and its margin.
        for line in drawn {
            for (a, b) in zip(line, line.dropFirst()) {
                for step in 0...1_000 {
                    let t = Double(step) / 1_000
                    let point = try #require(
                        Coordinate(
                            latitude: (Double(a.0) + Double(b.0 - a.0) * t) / TrackDrawing.scale,
                            longitude: (Double(a.1) + Double(b.1 - a.1) * t) / TrackDrawing.scale))
                    #expect(Self.metres(point) >= Self.home.radius + Geofence.trackMargin)
                }
            }
        }
        // Not cut again, the same drawing crosses it.
        let uncut = try #require(TrackLines([line]).drawing(around: [Self.home.centre], margin: 0.05, limit: 2))
        #expect(uncut.lines.count == 1 && uncut.lines.first?.count == 4)
        #expect(drawn.count == 2)
    }

    @Test("the catalog gives its lines cut by its fences; kept whole, and whole to the owner's own view")
    func catalogCuts() throws {
        let folder = try TemporaryFolder()
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        let line = [Self.offset(north: 0, east: 0), Self.offset(north: -1_000, east: -500)]
        try catalog.keep(TrackLines([line]))
        try catalog.add(Self.home)
        let shown = try catalog.trackLines()
        #expect(shown.lines.count == 1 && shown.lines.first?.last == line.last)
        #expect(Self.allOutside(shown.lines))
        #expect(try catalog.keptTrackLines() == TrackLines([line]))
        catalog.showsFenced = true
        #expect(try catalog.trackLines() == TrackLines([line]))
    }
}

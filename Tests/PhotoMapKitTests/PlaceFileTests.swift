// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Prebuilt places: places.bin mapped answers as the TSV files built")
struct PlaceFileTests {
    static let gazetteer = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/gazetteer")
    /// Built from the TSV files once for the suite (seconds in a debug build).
    static let built = Result { try LocalPlaces(sources: gazetteer) }

    /// A copy of the gazetteer's sources (as scripts/package copies them: no times kept) with a
    /// places.bin written from `built`.
    struct Copy {
        let folder: TemporaryFolder
        var file: URL { folder.url.appendingPathComponent(PlaceFile.name) }

        init() throws {
            folder = try TemporaryFolder()
            for source in PlaceFile.sources {
                try FileManager.default.copyItem(
                    at: PlaceFileTests.gazetteer.appendingPathComponent(source),
                    to: folder.url.appendingPathComponent(source))
            }
            try PlaceFileTests.built.get().write(to: file, signature: PlaceFile.signature(of: folder.url))
        }
    }

    /// A generator of the same numbers every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Points anywhere (mostly at sea), near places (on land, among cities and villages), and on the
    /// boundaries' own vertices and just beside them (on borders and coasts).
    static func points(count: Int) throws -> [Coordinate] {
        var random = Seeded(state: 50)
        let built = try Self.built.get()
        let boundaries = try Boundaries.load(gazetteer.appendingPathComponent("boundaries.bin"))
        func point(_ latitude: Double, _ longitude: Double) -> Coordinate? {
            Coordinate(latitude: min(max(latitude, -90), 90), longitude: min(max(longitude, -180), 180))
        }
        var points: [Coordinate?] = []
        for _ in 0..<count {
            points.append(point(.random(in: -90...90, using: &random), .random(in: -180...180, using: &random)))
            let place = Int.random(in: 0..<built.ids.count, using: &random)
            points.append(
                point(
                    built.latitudes[place] + .random(in: -0.2...0.2, using: &random),
                    built.longitudes[place] + .random(in: -0.2...0.2, using: &random)))
            for layer in [boundaries.countries, boundaries.divisions] {
                let vertex = Int.random(in: 0..<layer.longitudeSteps.count, using: &random)
                let nudge = Double.random(in: -0.002...0.002, using: &random)
                for offset in [0, nudge] {
                    points.append(
                        point(
                            Boundaries.degrees(layer.latitudeSteps[vertex]) + offset,
                            Boundaries.degrees(layer.longitudeSteps[vertex]) - offset))
                }
            }
        }
        return points.compactMap { $0 }
    }

    @Test("the mapped file names random points on land, at sea and on borders as the TSV-built places do")
    func sameNames() throws {
        let built = try Self.built.get()
        let copy = try Copy()
        let mapped = try LocalPlaces(prebuilt: copy.folder.url)
        let points = try Self.points(count: 4_000)
        var differing: [String] = []
        var kinds: [String: Int] = [:]
        for point in points {
            let (expected, found) = (built.place(for: point), mapped.place(for: point))
            kinds[String(expected.id.prefix { $0 != "_" }.prefix(7)), default: 0] += 1
            if expected != found { differing.append("\(point): \(expected) ≠ \(found)") }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(points.count): \(differing.prefix(5))")
        // The points reach every kind of answer: a city or village (its id digits), division, country, sea.
        #expect(kinds.keys.contains("region") && kinds.keys.contains("country") && kinds.keys.contains("area"))
        #expect(kinds.filter { $0.key.allSatisfy(\.isNumber) }.values.reduce(0, +) > 1_000, "\(kinds)")
    }

    @Test("a file of other sources or another version is refused; init(gazetteer:) then builds the same")
    func refused() throws {
        let copy = try Copy()
        var bytes = try Data(contentsOf: copy.file)
        bytes[8] = 99
        try bytes.write(to: copy.file)
        #expect(throws: PlaceFile.Refusal.otherVersion(99)) { try LocalPlaces(prebuilt: copy.folder.url) }
        let other = try Copy()
        let regions = other.folder.url.appendingPathComponent("regions.tsv")
        try (try Data(contentsOf: regions) + Data("\n".utf8)).write(to: regions)
        #expect(throws: PlaceFile.Refusal.otherSources) { try LocalPlaces(prebuilt: other.folder.url) }
        try FileManager.default.removeItem(at: other.file)
        #expect(throws: PlaceFile.Refusal.missing) { try LocalPlaces(prebuilt: other.folder.url) }
        // Built from the files instead, and naming as they do.
        let fallback = try LocalPlaces(gazetteer: copy.folder.url)
        let built = try Self.built.get()
        for point in try Self.points(count: 200) { #expect(fallback.place(for: point) == built.place(for: point)) }
    }

    @Test("a truncated file is refused; one with flipped bytes is refused or answers without a crash")
    func damaged() throws {
        let copy = try Copy()
        let whole = try Data(contentsOf: copy.file)
        for length in [0, 7, 8, 47, 48, 100, whole.count / 3, whole.count / 2, whole.count - 1] {
            try whole.prefix(length).write(to: copy.file)
            #expect(throws: PlaceFile.Refusal.self, "cut at \(length)") { try LocalPlaces(prebuilt: copy.folder.url) }
        }
        var random = Seeded(state: 7)
        let points = try Self.points(count: 25)
        // The header and section table first (where a flip moves whole sections), then anywhere.
        let tableEnd = min(whole.count, 48 + 16 * 80)
        var loaded = 0
        for round in 0..<60 {
            var bytes = whole
            for _ in 0..<(round % 3 + 1) {
                let at =
                    round < 30
                    ? Int.random(in: 8..<tableEnd, using: &random) : Int.random(in: 48..<whole.count, using: &random)
                bytes[at] ^= UInt8.random(in: 1...255, using: &random)
            }
            try bytes.write(to: copy.file)
            guard let places = try? LocalPlaces(prebuilt: copy.folder.url) else { continue }
            loaded += 1
            for point in points { _ = places.place(for: point) }
        }
        // Flips in the columns' values load (the file cannot tell them); each was asked and answered.
        #expect(loaded > 0)
    }
}

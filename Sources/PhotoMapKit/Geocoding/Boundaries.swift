// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Country and first-level division outlines (Natural Earth, public domain), as
/// `scripts/make_boundaries.py` writes them to `Fixtures/gazetteer/boundaries.bin`: two layers of
/// polygons, each polygon its codes, its name and its rings (even-odd: holes are rings too).
public struct Boundaries: Sendable {
    /// One polygon of a layer: a country ("FR", "", "France") or a division ("US", "WA", "Washington").
    public struct Region: Sendable, Hashable {
        /// ISO 3166-1 alpha-2 code of the country.
        public var country: String
        /// GeoNames admin1 code of the division; "" for a country, or a division no gazetteer city names.
        public var division: String
        /// Natural Earth's name of it.
        public var name: String
    }

    /// One layer's polygons, their rings flattened: ring `r` is `points[ringStarts[r]..<ringStarts[r + 1]]`,
    /// closed (its first point repeated last), and belongs to region `ringRegions[r]`.
    public struct Layer: Sendable {
        public var regions: [Region] = []
        /// Longitude and latitude in the file's steps of 1/`Boundaries.quantum` degree: half the room of
        /// degrees as Doubles, and the same Doubles when read (`Boundaries.degrees(_:)`).
        public var longitudeSteps: [Int32] = []
        public var latitudeSteps: [Int32] = []
        public var ringStarts: [Int] = [0]
        public var ringRegions: [Int] = []
    }

    /// Countries.
    public let countries: Layer
    /// States, provinces and the like.
    public let divisions: Layer

    static let magic = Array("PMBOUND1".utf8)
    /// Coordinates are stored as integer steps of 1/quantum degree.
    static let quantum = 10_000.0

    /// The degrees of `step` steps.
    @inline(__always) static func degrees(_ step: Int32) -> Double { Double(step) / quantum }

    /// Reads and checks the file: one whose SHA-256 trailer does not match its bytes is refused.
    public static func load(_ file: URL) throws(LocationError) -> Boundaries {
        let bytes = try Gazetteer.contents(file)
        do {
            return try Boundaries(bytes)
        } catch {
            throw .gazetteerUnreadable(path: file.path, reason: error.reason)
        }
    }

    /// What is wrong with a boundaries file.
    struct Malformed: Error {
        let reason: String
    }

    /// Decodes a file's bytes.
    init(_ bytes: [UInt8]) throws(Malformed) {
        guard bytes.count > Self.magic.count + 32, bytes.starts(with: Self.magic) else {
            throw Malformed(reason: "not a boundaries file (scripts/make_boundaries.py writes it)")
        }
        let body = bytes[..<(bytes.count - 32)]
        // A damaged or half-written file would name places wrongly rather than fail: check it first.
        guard SHA256.digest(body) == Array(bytes[(bytes.count - 32)...]) else {
            throw Malformed(
                reason: "its SHA-256 does not match its contents (damaged or changed by hand; "
                    + "regenerate it with scripts/make_boundaries.py)")
        }
        var reader = Reader(bytes: body, at: Self.magic.count)
        countries = try reader.layer()
        divisions = try reader.layer()
        guard reader.at == body.endIndex else { throw Malformed(reason: "bytes left after the divisions") }
    }

    /// Varints, zig-zag differences and length-prefixed UTF-8, as the script writes them.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var at: Int

        mutating func varint() throws(Malformed) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while at < bytes.endIndex, shift < 64 {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw Malformed(reason: "cut short or malformed at byte \(at)")
        }

        mutating func count() throws(Malformed) -> Int {
            let value = try varint()
            // No count in a valid file comes near the file's own size.
            guard value <= UInt64(bytes.count) else { throw Malformed(reason: "a count of \(value) at byte \(at)") }
            return Int(value)
        }

        mutating func text() throws(Malformed) -> String {
            let length = try count()
            guard at + length <= bytes.endIndex else { throw Malformed(reason: "cut short at byte \(at)") }
            defer { at += length }
            return String(decoding: bytes[at..<(at + length)], as: UTF8.self)
        }

        mutating func layer() throws(Malformed) -> Layer {
            var layer = Layer()
            for regionIndex in 0..<(try count()) {
                layer.regions.append(Region(country: try text(), division: try text(), name: try text()))
                for _ in 0..<(try count()) {
                    let points = try count()
                    guard points >= 3 else { throw Malformed(reason: "a ring of \(points) points") }
                    var x: Int64 = 0
                    var y: Int64 = 0
                    for _ in 0..<points {
                        x &+= Self.unzigzag(try varint())
                        y &+= Self.unzigzag(try varint())
                        let (longitude, latitude) = (Double(x) / Boundaries.quantum, Double(y) / Boundaries.quantum)
                        guard Coordinate.longitudes.contains(longitude), Coordinate.latitudes.contains(latitude) else {
                            throw Malformed(reason: "a point (\(latitude), \(longitude)) off the globe")
                        }
                        layer.longitudeSteps.append(Int32(x))
                        layer.latitudeSteps.append(Int32(y))
                    }
                    // Closed here, so every ring's edges are (i, i + 1).
                    let first = layer.ringStarts[layer.ringStarts.count - 1]
                    layer.longitudeSteps.append(layer.longitudeSteps[first])
                    layer.latitudeSteps.append(layer.latitudeSteps[first])
                    layer.ringStarts.append(layer.longitudeSteps.count)
                    layer.ringRegions.append(regionIndex)
                }
            }
            // Grown point by point, the arrays held up to twice their points.
            layer.longitudeSteps = layer.longitudeSteps.trimmed()
            layer.latitudeSteps = layer.latitudeSteps.trimmed()
            // BoundaryIndex packs a point's and a region's number into 21 bits each.
            guard layer.longitudeSteps.count < 1 << 21, layer.regions.count < 1 << 21 else {
                throw Malformed(reason: "too many points or regions in a layer")
            }
            return layer
        }

        static func unzigzag(_ value: UInt64) -> Int64 {
            Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Reads a GeoJSON FeatureCollection of Points whose properties are a record's fields (`id`, `title`,
/// `taken`, `image`; the location is the Point's, a null geometry none) with `JSONReader`, from a file of
/// at most `maximumBytes`, read whole. Every feature is named by the line its object starts on.
struct GeoJSONRecordReader {
    /// A GeoJSON records file is read whole, so its size is bounded: larger catalogs come as CSV, read
    /// in chunks.
    static let maximumBytes = 512 << 20

    private enum Top: Int, JSONMember {
        case type, features
        static let lookup = JSONKeyLookup(Top.self)
    }

    private enum FeatureMember: Int, JSONMember {
        case type, geometry, properties
        static let lookup = JSONKeyLookup(FeatureMember.self)
    }

    private enum GeometryMember: Int, JSONMember {
        case type, coordinates
        static let lookup = JSONKeyLookup(GeometryMember.self)
    }

    private enum Property: Int, JSONMember {
        case id, title, taken, image
        static let lookup = JSONKeyLookup(Property.self)
    }

    /// Every feature of `data` made a record (or why not), in order; throws `RecordsError.notRecords`
    /// for anything but a FeatureCollection, or JSON that is not well formed anywhere.
    static func read(_ data: Data, folder: String) throws -> [(line: Int, record: Result<PhotoRecord, RecordProblem>)] {
        var rows: [(line: Int, record: Result<PhotoRecord, RecordProblem>)] = []
        var type: String?
        var line = 1, counted = 0
        do {
            try JSONReader.read(data) { reader in
                guard try reader.nextKind() == .object else { throw RecordsError.notRecords }
                try reader.readObject(Top.self) { member, reader in
                    switch member {
                    case .type: type = try reader.string()
                    case .features:
                        guard try reader.nextKind() == .array else { throw RecordsError.notRecords }
                        try reader.readArray { _, reader in
                            reader.skipWhitespace()
                            line += reader.bytes[counted..<reader.position].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                            counted = reader.position
                            rows.append((line, try feature(&reader, folder: folder)))
                        }
                    }
                }
            }
        } catch let error as RecordsError {
            throw error
        } catch {
            throw RecordsError.malformedGeoJSON("\(error)")
        }
        guard type == "FeatureCollection" else { throw RecordsError.notRecords }
        return rows
    }

    /// One feature's record, or why it is skipped.
    private static func feature(_ reader: inout JSONReader, folder: String) throws -> Result<PhotoRecord, RecordProblem>
    {
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            return .failure(RecordProblem("a feature is not an object"))
        }
        var properties: [Property: String] = [:]
        var hasProperties = false
        var coordinates: [String]?
        var geometryProblem: String?
        try reader.readObject(FeatureMember.self) { member, reader in
            switch member {
            case .type: _ = try reader.string()
            case .properties:
                guard try reader.nextKind() == .object else { return }
                hasProperties = true
                try reader.readObject(Property.self) { property, reader in
                    if try reader.nextKind() == .literal, reader.takeNull() { return }
                    properties[property] = try reader.lenientText()
                }
            case .geometry:
                if try reader.nextKind() == .literal, reader.takeNull() { return }
                guard try reader.nextKind() == .object else { return geometryProblem = "its geometry is not a Point" }
                var kind: String?
                try reader.readObject(GeometryMember.self) { member, reader in
                    switch member {
                    case .type: kind = try reader.string()
                    case .coordinates:
                        guard try reader.nextKind() == .array else { return }
                        var values: [String] = []
                        try reader.readArray { _, reader in values.append(try reader.lenientText()) }
                        coordinates = values
                    }
                }
                if kind != "Point" { geometryProblem = "its geometry is not a Point" }
            }
        }
        if let geometryProblem { return .failure(RecordProblem(geometryProblem)) }
        guard hasProperties, let id = properties[.id], let image = properties[.image] else {
            return .failure(RecordProblem("its properties lack id or image"))
        }
        var latitude = "", longitude = ""
        if let coordinates {
            guard coordinates.count == 2 || coordinates.count == 3 else {
                return .failure(RecordProblem("its Point does not have two coordinates"))
            }
            // An empty text here is a null or non-number coordinate, not "no location".
            longitude = coordinates[0].isEmpty ? "?" : coordinates[0]
            latitude = coordinates[1].isEmpty ? "?" : coordinates[1]
        }
        return PhotoRecord.make(
            id: id, title: properties[.title] ?? "", taken: properties[.taken] ?? "", latitude: latitude,
            longitude: longitude, image: image, folder: folder)
    }
}

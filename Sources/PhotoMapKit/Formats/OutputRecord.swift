// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// One listed record as the open formats write it: its annotation (with its page on Flickr, which
/// Flickr's rules ask every shown photo to link to) and the fields a command adds (a search hit's
/// query and distance).
public struct OutputRecord: Sendable {
    /// A field's value.
    public enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case number(Double)
        /// Known to have no value (a record without a coordinate, a search without a centre).
        case null
        /// Named values of their own (a photo's licence: id, name, deed).
        indirect case object([Field])

        /// The value as plain text: numbers as JSON writes them, null as nothing, an object's values
        /// one after the other.
        var plainText: String {
            switch self {
            case let .text(text): text
            case .null: ""
            case let .object(fields): fields.map(\.value.plainText).filter { !$0.isEmpty }.joined(separator: " ")
            default: JSONText.value(self)
            }
        }
    }

    /// A named value.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: Value

        /// Creates a field.
        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// What is listed.
    public var annotation: Annotation
    /// Fields added by the command, in the order its writer declared them.
    public var extras: [Field]

    /// Creates a record.
    public init(_ annotation: Annotation, extras: [Field] = []) {
        self.annotation = annotation
        self.extras = extras
    }

    /// The record's page on Flickr, when it has one.
    public var link: String? { annotation.pageURL }

    /// Every field any record can have, in order: CSV's header.
    public static let standardFields = [
        "kind", "id", "title", "subtitle", "latitude", "longitude", "photoCount",
        "thumbnailURL", "imageURL", "owner", "dateTaken", "pageURL", "license",
    ]

    /// The record's fields in order: the first six always (latitude and longitude null without a
    /// coordinate); a photo's own always, null when unknown (an unknown date taken is null, never
    /// Flickr's 1969 placeholder); a place's photo count and page where known; then the extras.
    var fields: [Field] {
        let core: [Field] = [
            Field("kind", .text(annotation.kind.rawValue)), Field("id", .text(annotation.id)),
            Field("title", .text(annotation.title)), Field("subtitle", .text(annotation.subtitle)),
            Field("latitude", annotation.coordinate.map { .number($0.latitude) } ?? .null),
            Field("longitude", annotation.coordinate.map { .number($0.longitude) } ?? .null),
        ]
        let text = { (value: String?) in value.map { Value.text($0) } ?? .null }
        guard annotation.kind == .photo else {
            let known: [(String, Value?)] = [
                ("photoCount", annotation.photoCount.map { .integer($0) }),
                ("pageURL", annotation.pageURL.map { .text($0) }),
            ]
            return core + known.compactMap { name, value in value.map { Field(name, $0) } } + extras
        }
        let license = annotation.license.map { license in
            Value.object([
                Field("id", .text(license.id)), Field("name", .text(license.name)),
                Field("url", text(license.url)),
            ])
        }
        return core + [
            Field("thumbnailURL", text(annotation.thumbnailURL)), Field("imageURL", text(annotation.imageURL)),
            Field("owner", text(annotation.owner)), Field("dateTaken", text(annotation.dateTaken)),
            Field("pageURL", text(annotation.pageURL)), Field("license", license ?? .null),
        ] + extras
    }
}

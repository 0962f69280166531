/// One listed record as the open formats write it: its annotation, its page on Flickr, and the
/// fields a command adds (a search hit's query and distance).
public struct OutputRecord: Sendable {
    /// A field's value.
    public enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case number(Double)
        /// Known to have no value (a record without a coordinate, a search without a centre).
        case null

        /// The value as plain text: numbers as JSON writes them, null as nothing.
        var plainText: String {
            switch self {
            case let .text(text): text
            case .null: ""
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
    /// The record's page (on Flickr), when it has one.
    public var link: String?
    /// Fields added by the command, in the order its writer declared them.
    public var extras: [Field]

    /// Creates a record.
    public init(_ annotation: Annotation, link: String? = nil, extras: [Field] = []) {
        self.annotation = annotation
        self.link = link
        self.extras = extras
    }

    /// Every field any record can have, in order: CSV's header.
    public static let standardFields = ["kind", "id", "title", "subtitle", "latitude", "longitude", "photoCount",
                                        "thumbnailURL", "imageURL", "owner", "dateTaken", "link"]

    /// The record's fields in order: the first six always (latitude and longitude null without a
    /// coordinate), the kind-specific ones only where they apply, then the extras.
    var fields: [Field] {
        let core: [Field] = [
            Field("kind", .text(annotation.kind.rawValue)), Field("id", .text(annotation.id)),
            Field("title", .text(annotation.title)), Field("subtitle", .text(annotation.subtitle)),
            Field("latitude", annotation.coordinate.map { .number($0.latitude) } ?? .null),
            Field("longitude", annotation.coordinate.map { .number($0.longitude) } ?? .null),
        ]
        let optional: [(String, Value?)] = [
            ("photoCount", annotation.photoCount.map { .integer($0) }), ("thumbnailURL", annotation.thumbnailURL.map { .text($0) }),
            ("imageURL", annotation.imageURL.map { .text($0) }), ("owner", annotation.owner.map { .text($0) }),
            ("dateTaken", annotation.dateTaken.map { .text($0) }), ("link", link.map { .text($0) }),
        ]
        return core + optional.compactMap { name, value in value.map { Field(name, $0) } } + extras
    }
}

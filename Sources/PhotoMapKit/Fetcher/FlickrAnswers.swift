// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

// The Flickr answers photomap reads (flickr.com/services/api), read from their bytes by JSONReader:
// only the fields photomap uses, each numeric one as text (Flickr sends numbers as strings or numbers
// even side by side), a malformed record skipped and reported while the rest are kept.

/// A method's part of an answer (`places`, `photos`, `licenses`): its records, or why the part cannot
/// be read, which makes the whole answer malformed.
enum AnswerPart<Value> {
    case read(Value)
    case malformed(String)
}

/// What every answer says at its top level, and its method's part, read in one pass.
struct FlickrAnswer<Part> {
    /// "ok" or "fail"; nil when missing or not a string.
    var stat: String?
    /// Flickr's error code, on failure.
    var code: LenientValue?
    /// Flickr's error message, on failure.
    var message: String?
    /// The method's part; nil when the answer has none.
    var part: AnswerPart<Part>?

    /// Reads `json` (JSONP already unwrapped): `stat`, `code`, `message`, and the method's part `key`
    /// by `readPart`. Throws only when the text is not JSON.
    static func read(
        _ json: Data, key: AnswerMember?,
        part readPart: (inout JSONReader) throws -> AnswerPart<Part>
    ) throws -> FlickrAnswer {
        var answer = FlickrAnswer()
        try JSONReader.read(json) { reader in
            guard try reader.nextKind() == .object else {
                try reader.skipValue()
                return
            }
            try reader.readObject(AnswerMember.self) { member, reader in
                switch member {
                case .stat: answer.stat = try reader.string()
                case .code: answer.code = try reader.optionalLenient()
                case .message: answer.message = try reader.string()
                case .places, .photos, .licenses, .place, .photo:
                    if member == key { answer.part = try readPart(&reader) }
                }
            }
        }
        return answer
    }
}

/// The members of an answer photomap reads: the status, and each method's part.
enum AnswerMember: Int, JSONMember {
    case stat, code, message, places, photos, licenses, place, photo
    static let lookup = JSONKeyLookup(AnswerMember.self)
}

extension FlickrAnswer where Part == Never {
    /// The status alone (the method's part stepped over): whether Flickr said ok, or which code it failed with.
    static func status(of json: Data) throws -> FlickrAnswer<Never> {
        try read(json, key: nil) { reader in
            try reader.skipValue()
            return .malformed("")
        }
    }
}

extension JSONReader {
    /// The next value as text, or nil when it is null (as an optional field decodes it).
    mutating func optionalLenient() throws -> LenientValue? {
        if try nextKind() == .literal, takeNull() { return nil }
        return LenientValue(text: try lenientText())
    }

    /// Reads an array of records where `part` names it: null is none, anything but an array makes the part
    /// malformed. Each element is read by `record`; one it cannot read is skipped, its reason kept.
    mutating func records<Record>(_ part: String, _ record: (inout JSONReader) throws -> AnswerPart<Record>)
        throws -> AnswerPart<(records: [Record], skipped: [String])>
    {
        let kind = try nextKind()
        if kind == .literal, takeNull() { return .read(([], [])) }
        switch kind {
        case .array:
            var records: [Record] = [], skipped: [String] = []
            try readArray { index, reader in
                switch try record(&reader) {
                case let .read(value): records.append(value)
                case let .malformed(why): skipped.append("item \(index + 1): \(why)")
                }
            }
            return .read((records, skipped))
        default:
            try skipValue()
            return .malformed("\(part): expected an array")
        }
    }

    /// Walks the object at the reader by `readObject`; an `AnswerPart` is malformed unless it is an
    /// object whose keys are text: the reason, or nil when it was read.
    mutating func fields<Member: JSONMember>(
        of part: String, _: Member.Type,
        _ member: (Member, inout JSONReader) throws -> Void
    ) throws -> String? {
        guard try nextKind() == .object else {
            try skipValue()
            return "\(part): expected an object"
        }
        do {
            try readObject(Member.self, member)
        } catch is JSONInvalidKey {
            return "\(part): a key is not valid text"
        }
        return nil
    }

    /// Text Flickr wraps as `{"_content": "…"}` (a description, a getInfo title); a bare value is taken
    /// too. An object that cannot be read is no text (""), not a lost record.
    mutating func wrappedText() throws -> String {
        guard try nextKind() == .object else { return try lenientText() }
        var content = ""
        if try fields(of: "text", ContentMember.self, { _, reader in content = try reader.lenientText() }) != nil {
            return ""
        }
        return content
    }
}

/// Flickr's wrapper of text: `{"_content": "…"}`.
private enum ContentMember: Int, JSONMember {
    case _content
    static let lookup = JSONKeyLookup(ContentMember.self)
}

/// flickr.places.getTopPlacesList and flickr.places.find: `places{total, place[…]}`.
enum PlacesAnswer {
    private enum Member: Int, JSONMember {
        case total, place
        static let lookup = JSONKeyLookup(Member.self)
    }

    /// The places of one answer, the total Flickr counts, and the records skipped.
    struct Page {
        var places: [Place]
        var total: Int?
        var skipped: [String]
    }

    static func read(_ reader: inout JSONReader) throws -> AnswerPart<Page> {
        var total: LenientValue?
        var places: AnswerPart<(records: [Place], skipped: [String])> = .read(([], []))
        let problem = try reader.fields(of: "places", Member.self) { member, reader in
            switch member {
            case .total: total = try reader.optionalLenient()
            case .place: places = try reader.records("places.place", place)
            }
        }
        if let problem { return .malformed(problem) }
        guard case let .read((items, skipped)) = places else { return places.failed() }
        return .read(Page(places: items, total: total?.int, skipped: skipped))
    }

    private enum Field: Int, JSONMember {
        case place_id, woeid, latitude, longitude, place_url, place_type, place_type_id, photo_count
        case _content, name, woe_name, timezone
        static let lookup = JSONKeyLookup(Field.self)
    }

    /// One place; its `place_id` must be a string. Its full name is `_content` in lists, `name` in
    /// flickr.places.getInfo's `place` (whose hierarchy and shape data are stepped over).
    static func place(_ reader: inout JSONReader) throws -> AnswerPart<Place> {
        var id: String??
        var values = [LenientValue?](repeating: nil, count: Field.allCases.count)
        if let problem = try reader.fields(
            of: "place", Field.self,
            { field, reader in
                if field == .place_id {
                    id = .some(try reader.string())
                } else {
                    values[field.rawValue] = try reader.optionalLenient()
                }
            })
        {
            return .malformed(recordProblem(problem, "place"))
        }
        guard let present = id else { return .malformed("missing field \"place_id\"") }
        guard let id = present else { return .malformed("place_id: expected a string") }
        let value = { (field: Field) in values[field.rawValue] }
        let text = { (field: Field) in value(field)?.text }
        return .read(
            Place(
                id: id, woeid: text(.woeid) ?? "",
                fullName: text(._content) ?? text(.name) ?? text(.woe_name) ?? "",
                shortName: text(.woe_name) ?? "",
                coordinate: .flickr(
                    latitude: value(.latitude)?.double,
                    longitude: value(.longitude)?.double),
                url: text(.place_url) ?? "", type: text(.place_type) ?? "",
                typeID: value(.place_type_id)?.int,
                photoCount: value(.photo_count)?.int, timezone: text(.timezone) ?? ""))
    }
}

/// flickr.photos.search: `photos{page, pages, perpage, total, photo[…]}`.
enum PhotosAnswer {
    /// One page: its photos (each with whether Flickr says it is a photo, not a video), the pages and
    /// results Flickr counts, and the records skipped.
    struct Page {
        var photos: [(photo: Photo, isPhoto: Bool)]
        var pages: Int?
        var total: Int?
        var skipped: [String]
    }

    private enum Member: Int, JSONMember {
        case pages, total, photo
        static let lookup = JSONKeyLookup(Member.self)
    }

    static func read(_ reader: inout JSONReader) throws -> AnswerPart<Page> {
        var pages: LenientValue?, total: LenientValue?
        var photos: AnswerPart<(records: [(photo: Photo, isPhoto: Bool)], skipped: [String])> = .read(([], []))
        let problem = try reader.fields(of: "photos", Member.self) { member, reader in
            switch member {
            case .pages: pages = try reader.optionalLenient()
            case .total: total = try reader.optionalLenient()
            case .photo: photos = try reader.records("photos.photo", photo)
            }
        }
        if let problem { return .malformed(problem) }
        guard case let .read((records, skipped)) = photos else { return photos.failed() }
        return .read(Page(photos: records, pages: pages?.int, total: total?.int, skipped: skipped))
    }

    /// The fields of a record photomap reads (the listing extras).
    private enum Field: Int, JSONMember {
        case id, owner, pathalias, secret, server, title, description, ownername, datetaken, datetakenunknown
        case license, media, tags
        case latitude, longitude, place_id
        case url_sq, width_sq, height_sq, url_q, width_q, height_q, url_m, width_m, height_m
        static let lookup = JSONKeyLookup(Field.self)

        /// The `url_*`, `width_*` and `height_*` fields of `size`.
        static func image(_ size: PhotoSize) -> (url: Field, width: Field, height: Field) {
            switch size {
            case .square: (.url_sq, .width_sq, .height_sq)
            case .largeSquare: (.url_q, .width_q, .height_q)
            case .medium: (.url_m, .width_m, .height_m)
            }
        }
    }

    private static let fieldCount = Field.allCases.count

    /// One photo record with the listing extras; only its `id` is required. Flickr wraps text extras as
    /// `{"_content": "…"}`; a bare value is taken too, and anything odd costs that field, not the record.
    static func photo(_ reader: inout JSONReader) throws -> AnswerPart<(photo: Photo, isPhoto: Bool)> {
        var id: LenientValue?, description = ""
        var values = [LenientValue?](repeating: nil, count: fieldCount)
        if let problem = try reader.fields(
            of: "photo", Field.self,
            { field, reader in
                switch field {
                case .id: id = LenientValue(text: try reader.lenientText())
                case .description: description = try reader.wrappedText()
                default: values[field.rawValue] = try reader.optionalLenient()
                }
            })
        {
            return .malformed(recordProblem(problem, "photo"))
        }
        guard let id else { return .malformed("missing field \"id\"") }
        let value = { (field: Field) in values[field.rawValue] }
        let text = { (field: Field) in value(field)?.text ?? "" }
        let licenseID = text(.license).trimming(.whitespaces)
        var photo = Photo(
            id: id.text, owner: text(.owner), pathAlias: text(.pathalias), secret: text(.secret),
            server: text(.server),
            title: text(.title), descriptionHTML: description, ownerName: text(.ownername),
            dateTaken: knownDateTaken(value(.datetaken)?.text, unknown: value(.datetakenunknown)),
            tags: text(.tags).split(separator: " ").map(String.init),
            coordinate: .flickr(latitude: value(.latitude)?.double, longitude: value(.longitude)?.double),
            placeID: text(.place_id), license: licenseID.isEmpty ? nil : License(id: licenseID))
        var held = photo.images
        for size in PhotoSize.allCases {
            let fields = Field.image(size)
            guard let url = value(fields.url)?.text, !url.isEmpty else { continue }
            held[size] = ImageReference(url: url, width: value(fields.width)?.int, height: value(fields.height)?.int)
        }
        photo.images = held
        // A record without `media` (an answer recorded without the extra) is taken for a photo.
        return .read((photo, text(.media).isEmpty || text(.media) == "photo"))
    }

    /// When it was taken; nil when Flickr flags the date unknown (`datetakenunknown` 1) or sends its
    /// placeholder for no date (1969-12-31, the Unix epoch in Pacific time; or zeros).
    static func knownDateTaken(_ text: String?, unknown: LenientValue?) -> String? {
        guard let taken = text?.trimming(.whitespaces), !taken.isEmpty,
            unknown?.int != 1, !taken.hasPrefix("1969-12-31"), !taken.hasPrefix("0000-00-00")
        else { return nil }
        return taken
    }

    /// The records of an answer's `photos.photo`, each as its bytes, with the pages and results Flickr
    /// counts; nil when the answer is not JSON or has no such array. Listings kept in the cache and the
    /// embedded catalog re-page their records byte for byte.
    static func recordBytes(in json: Data) -> (records: [Data], pages: Int?, total: Int?)? {
        var records: [Data]?, pages: LenientValue?, total: LenientValue?
        let read: ()? = try? JSONReader.read(json) { reader in
            guard try reader.nextKind() == .object else { return }
            try reader.readObject(AnswerMember.self) { member, reader in
                guard member == .photos else { return }
                _ = try reader.fields(of: "photos", Member.self) { member, reader in
                    switch member {
                    case .pages: pages = try reader.optionalLenient()
                    case .total: total = try reader.optionalLenient()
                    case .photo:
                        guard try reader.nextKind() == .array else { return }
                        var found: [Data] = []
                        try reader.readArray { _, reader in found.append(try reader.valueBytes()) }
                        records = found
                    }
                }
            }
        }
        guard read != nil, let records else { return nil }
        return (records, pages?.int, total?.int)
    }
}

/// flickr.photos.licenses.getInfo: `{"licenses":{"license":[{"id":0,"name":"All Rights Reserved","url":""},…]}}`.
enum LicensesAnswer {
    private enum Member: Int, JSONMember {
        case license
        static let lookup = JSONKeyLookup(Member.self)
    }

    /// Each licence by its id (the first of a repeated id).
    static func read(_ reader: inout JSONReader) throws -> AnswerPart<[String: License]> {
        var licenses: AnswerPart<(records: [License], skipped: [String])> = .read(([], []))
        let problem = try reader.fields(of: "licenses", Member.self) { _, reader in
            licenses = try reader.records("licenses.license", license)
        }
        if let problem { return .malformed(problem) }
        guard case let .read((records, _)) = licenses else { return licenses.failed() }
        return .read(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    private enum Field: Int, JSONMember {
        case id, name, url
        static let lookup = JSONKeyLookup(Field.self)
    }

    static func license(_ reader: inout JSONReader) throws -> AnswerPart<License> {
        var values = [LenientValue?](repeating: nil, count: Field.allCases.count)
        if let problem = try reader.fields(
            of: "license", Field.self,
            { field, reader in
                values[field.rawValue] =
                    field == .id
                    ? LenientValue(text: try reader.lenientText())
                    : try reader.optionalLenient()
            })
        {
            return .malformed(recordProblem(problem, "license"))
        }
        guard let id = values[Field.id.rawValue] else { return .malformed("missing field \"id\"") }
        return .read(
            License(
                id: id.text, name: values[Field.name.rawValue]?.text ?? "",
                url: values[Field.url.rawValue]?.text))
    }
}

/// A record's reason for being skipped, from `fields(of:)`'s.
private func recordProblem(_ problem: String, _ part: String) -> String {
    problem == "\(part): expected an object" ? "not an object" : "a key is not valid text"
}

extension AnswerPart {
    /// The same failure, for a part of another type; only for `.malformed`.
    func failed<Other>() -> AnswerPart<Other> {
        if case let .malformed(why) = self { return .malformed(why) }
        return .malformed("unreadable")
    }
}

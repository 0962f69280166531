// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import PhotoMapSupport

/// flickr.photos.getInfo: `photo{id, secret, server, license, owner{…}, title{_content},
/// description{_content}, dates{taken, takenunknown}, tags{tag[…]}, location{latitude, longitude,
/// place_id}, media}` (flickr.com/services/api/flickr.photos.getInfo.html), read into the same `Photo`
/// a listing's record becomes. It carries no `url_*` fields: its images follow Flickr's URL template.
enum PhotoInfoAnswer {
    private enum Field: Int, JSONMember {
        case id, secret, server, license, owner, title, description, dates, tags, location, media
        static let lookup = JSONKeyLookup(Field.self)
    }

    private enum OwnerField: Int, JSONMember {
        case nsid, username, path_alias
        static let lookup = JSONKeyLookup(OwnerField.self)
    }

    private enum DatesField: Int, JSONMember {
        case taken, takenunknown
        static let lookup = JSONKeyLookup(DatesField.self)
    }

    private enum TagsField: Int, JSONMember {
        case tag
        static let lookup = JSONKeyLookup(TagsField.self)
    }

    private enum TagField: Int, JSONMember {
        case _content
        static let lookup = JSONKeyLookup(TagField.self)
    }

    private enum LocationField: Int, JSONMember {
        case latitude, longitude, place_id
        static let lookup = JSONKeyLookup(LocationField.self)
    }

    /// The photo, with whether Flickr says it is a photo (not a video); only its `id` is required, and
    /// a part that cannot be read costs that part, not the photo.
    static func read(_ reader: inout JSONReader) throws -> AnswerPart<(photo: Photo, isPhoto: Bool)> {
        var text: [Field: String] = [:]
        var owner: [OwnerField: String] = [:], dates: [DatesField: LenientValue] = [:]
        var location: [LocationField: LenientValue] = [:], tags: [String] = []
        if let problem = try reader.fields(
            of: "photo", Field.self,
            { field, reader in
                switch field {
                case .id, .secret, .server, .license, .media: text[field] = try reader.optionalLenient()?.text
                case .title, .description: text[field] = try reader.wrappedText()
                case .owner:
                    _ = try reader.fields(of: "owner", OwnerField.self) { key, reader in
                        owner[key] = try reader.optionalLenient()?.text
                    }
                case .dates:
                    _ = try reader.fields(of: "dates", DatesField.self) { key, reader in
                        dates[key] = try reader.optionalLenient()
                    }
                case .location:
                    _ = try reader.fields(of: "location", LocationField.self) { key, reader in
                        location[key] = try reader.optionalLenient()
                    }
                case .tags:
                    _ = try reader.fields(of: "tags", TagsField.self) { _, reader in
                        guard case let .read((read, _)) = try reader.records("tags.tag", tag) else { return }
                        tags = read
                    }
                }
            })
        {
            return .malformed(problem)
        }
        guard let id = text[.id], !id.isEmpty else { return .malformed("missing field \"id\"") }
        let licenseID = (text[.license] ?? "").trimming(.whitespaces)
        let photo = Photo(
            id: id, owner: owner[.nsid] ?? "", pathAlias: owner[.path_alias] ?? "",
            secret: text[.secret] ?? "", server: text[.server] ?? "", title: text[.title] ?? "",
            descriptionHTML: text[.description] ?? "", ownerName: owner[.username] ?? "",
            dateTaken: PhotosAnswer.knownDateTaken(dates[.taken]?.text, unknown: dates[.takenunknown]),
            tags: tags,
            coordinate: .flickr(
                latitude: location[.latitude]?.double,
                longitude: location[.longitude]?.double),
            placeID: location[.place_id]?.text ?? "",
            license: licenseID.isEmpty ? nil : License(id: licenseID))
        let media = text[.media] ?? ""
        return .read((photo, media.isEmpty || media == "photo"))
    }

    /// One tag, as its normalised text (`_content`: what flickr.photos.search's `tags` extra lists).
    private static func tag(_ reader: inout JSONReader) throws -> AnswerPart<String> {
        var content: String?
        if let problem = try reader.fields(
            of: "tag", TagField.self, { _, reader in content = try reader.lenientText() })
        {
            return .malformed(problem)
        }
        guard let content, !content.isEmpty else { return .malformed("missing field \"_content\"") }
        return .read(content)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

// The records of the embedded catalog as `FixtureTransport` reads them (with JSONDecoder, each value
// a string or a number as Flickr recorded it), and the answers it reshapes them into (with JSONOutput).

/// `top-places.json`: flickr.places.getTopPlacesList's answer.
struct RecordedPlaces: Decodable {
    struct Places: Decodable {
        let place: [RecordedPlace]
    }
    let places: Places
}

/// A place of the top places list.
struct RecordedPlace: Decodable {
    let place_id, woeid, latitude, longitude, place_url, place_type, place_type_id, timezone: LenientValue?
    /// The full name.
    let _content: LenientValue?
    let woe_name: LenientValue?
}

/// flickr.places.getInfo's answer for a place of the list: its full name as `name`, no photo count.
struct FixturePlaceInfo: Encodable {
    struct Place: Encodable {
        let place_id, woeid, latitude, longitude, place_url, place_type, place_type_id, timezone: LenientValue?
        let name, woe_name: LenientValue?

        init(_ place: RecordedPlace) {
            (place_id, woeid, latitude, longitude) = (place.place_id, place.woeid, place.latitude, place.longitude)
            (place_url, place_type, place_type_id) = (place.place_url, place.place_type, place.place_type_id)
            (timezone, name, woe_name) = (place.timezone, place._content, place.woe_name)
        }
    }
    let place: Place
    var stat = "ok"
}

/// Text Flickr wraps as `{"_content": "…"}` (or, in a listing's record, sends bare).
struct WrappedText: Codable {
    let _content: LenientValue

    init(_ content: LenientValue) {
        _content = content
    }

    init(from decoder: any Decoder) throws {
        if let bare = try? LenientValue(from: decoder) {
            _content = bare
        } else {
            _content = try decoder.container(keyedBy: CodingKeys.self).decode(LenientValue.self, forKey: ._content)
        }
    }
}

/// A photo record of a listing, with the listing extras.
struct RecordedPhoto: Decodable {
    let id, secret, server, farm, license, media, owner, ownername, pathalias: LenientValue?
    let title, description: WrappedText?
    let datetaken, datetakenunknown, datetakengranularity, tags: LenientValue?
    let latitude, longitude, accuracy, place_id, woeid: LenientValue?
}

/// flickr.photos.getInfo's answer made of a listing's record.
struct FixturePhotoInfo: Encodable {
    struct Photo: Encodable {
        struct Owner: Encodable {
            let nsid, username: LenientValue
            let path_alias: LenientValue?
        }
        struct Dates: Encodable {
            let taken, takenunknown, takengranularity: LenientValue
        }
        struct Tag: Encodable {
            let raw, _content: String
        }
        struct Tags: Encodable {
            let tag: [Tag]
        }
        struct Location: Encodable {
            let latitude, longitude, accuracy, place_id, woeid: LenientValue
        }

        let id, secret, server, farm, license, media: LenientValue?
        let owner: Owner
        let title, description: WrappedText
        let dates: Dates
        let tags: Tags
        let location: Location?

        init(_ record: RecordedPhoto) {
            let none = LenientValue(text: "")
            (id, secret, server, farm, license, media) =
                (record.id, record.secret, record.server, record.farm, record.license, record.media)
            owner = Owner(nsid: record.owner ?? none, username: record.ownername ?? none, path_alias: record.pathalias)
            title = record.title ?? WrappedText(none)
            description = record.description ?? WrappedText(none)
            dates = Dates(
                taken: record.datetaken ?? none, takenunknown: record.datetakenunknown ?? LenientValue(text: "0"),
                takengranularity: record.datetakengranularity ?? LenientValue(text: "0"))
            tags = Tags(
                tag: (record.tags?.text ?? "").split(separator: " ").map { Tag(raw: String($0), _content: String($0)) })
            location = record.latitude.flatMap { latitude in
                record.longitude.map { longitude in
                    Location(
                        latitude: latitude, longitude: longitude, accuracy: record.accuracy ?? LenientValue(text: "16"),
                        place_id: record.place_id ?? none, woeid: record.woeid ?? none)
                }
            }
        }
    }
    let photo: Photo
    var stat = "ok"
}

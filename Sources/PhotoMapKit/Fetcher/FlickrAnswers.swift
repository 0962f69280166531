import Foundation

// The JSON shapes of the Flickr answers photomap reads (flickr.com/services/api).
// Every numeric field is a LenientValue: Flickr sends numbers as strings or numbers.

/// The `stat` envelope every answer has; `code` and `message` on failure.
struct FlickrStatus: Decodable {
    let stat: String?
    let code: LenientValue?
    let message: String?
}

/// flickr.places.getTopPlacesList and flickr.places.find.
struct PlacesAnswer: Decodable {
    struct Places: Decodable {
        let total: LenientValue?
        let place: LossyArray<PlaceRecord>?
    }
    let places: Places
}

struct PlaceRecord: Decodable {
    let place_id: String
    let woeid: LenientValue?
    let latitude: LenientValue?
    let longitude: LenientValue?
    let place_url: LenientValue?
    let place_type: LenientValue?
    let place_type_id: LenientValue?
    let photo_count: LenientValue?
    let _content: LenientValue?
    let woe_name: LenientValue?
    let timezone: LenientValue?

    var place: Place {
        Place(id: place_id, woeid: woeid?.text ?? "", fullName: _content?.text ?? woe_name?.text ?? "",
              shortName: woe_name?.text ?? "",
              coordinate: .flickr(latitude: latitude?.double, longitude: longitude?.double),
              url: place_url?.text ?? "", type: place_type?.text ?? "", typeID: place_type_id?.int,
              photoCount: photo_count?.int, timezone: timezone?.text ?? "")
    }
}

/// flickr.photos.search.
struct PhotosAnswer: Decodable {
    struct Photos: Decodable {
        let page: LenientValue?
        let pages: LenientValue?
        let perpage: LenientValue?
        let total: LenientValue?
        let photo: LossyArray<PhotoRecord>?
    }
    let photos: Photos
}

struct PhotoRecord: Decodable {
    /// Flickr wraps text extras as `{"_content": "…"}`; a bare string or anything odd is accepted too,
    /// so one strange field never costs the whole record.
    struct Content: Decodable {
        let _content: String?

        private enum CodingKeys: String, CodingKey { case _content }

        init(from decoder: any Decoder) throws {
            if let keyed = try? decoder.container(keyedBy: CodingKeys.self) {
                _content = (try? keyed.decode(LenientValue.self, forKey: ._content))?.text
            } else {
                _content = (try? decoder.singleValueContainer().decode(LenientValue.self))?.text
            }
        }
    }

    let id: LenientValue
    let owner: LenientValue?
    let pathalias: LenientValue?
    let secret: LenientValue?
    let server: LenientValue?
    let title: LenientValue?
    let description: Content?
    let ownername: LenientValue?
    let datetaken: LenientValue?
    let datetakenunknown: LenientValue?
    let license: LenientValue?
    let media: LenientValue?
    let tags: LenientValue?
    let latitude: LenientValue?
    let longitude: LenientValue?
    let place_id: LenientValue?
    let url_sq: LenientValue?, width_sq: LenientValue?, height_sq: LenientValue?
    let url_q: LenientValue?, width_q: LenientValue?, height_q: LenientValue?
    let url_m: LenientValue?, width_m: LenientValue?, height_m: LenientValue?

    /// Flickr's `media` extra: "photo" or "video". A record without it (an answer recorded without the
    /// extra) is taken for a photo.
    var isPhoto: Bool { (media?.text ?? "").isEmpty || media?.text == "photo" }

    /// When it was taken; nil when Flickr flags the date unknown (`datetakenunknown` 1) or sends its
    /// placeholder for no date (1969-12-31, the Unix epoch in Pacific time; or zeros).
    var knownDateTaken: String? {
        guard let taken = datetaken?.text.trimmingCharacters(in: .whitespaces), !taken.isEmpty,
              datetakenunknown?.int != 1, !taken.hasPrefix("1969-12-31"), !taken.hasPrefix("0000-00-00")
        else { return nil }
        return taken
    }

    /// The photo; its licence carries only its id until named from Flickr's list.
    var photo: Photo {
        var images: [PhotoSize: ImageReference] = [:]
        func add(_ size: PhotoSize, _ url: LenientValue?, _ width: LenientValue?, _ height: LenientValue?) {
            if let url = url?.text, !url.isEmpty { images[size] = ImageReference(url: url, width: width?.int, height: height?.int) }
        }
        add(.square, url_sq, width_sq, height_sq)
        add(.largeSquare, url_q, width_q, height_q)
        add(.medium, url_m, width_m, height_m)
        let licenseID = license?.text.trimmingCharacters(in: .whitespaces) ?? ""
        return Photo(id: id.text, owner: owner?.text ?? "", pathAlias: pathalias?.text ?? "", secret: secret?.text ?? "",
                     server: server?.text ?? "", title: title?.text ?? "", descriptionHTML: description?._content ?? "",
                     ownerName: ownername?.text ?? "", dateTaken: knownDateTaken,
                     tags: (tags?.text ?? "").split(separator: " ").map(String.init),
                     coordinate: .flickr(latitude: latitude?.double, longitude: longitude?.double),
                     placeID: place_id?.text ?? "", images: images, license: licenseID.isEmpty ? nil : License(id: licenseID))
    }
}

/// flickr.photos.licenses.getInfo: `{"licenses":{"license":[{"id":0,"name":"All Rights Reserved","url":""},…]}}`.
struct LicensesAnswer: Decodable {
    struct Licenses: Decodable {
        let license: LossyArray<LicenseRecord>?
    }
    struct LicenseRecord: Decodable {
        let id: LenientValue
        let name: LenientValue?
        let url: LenientValue?
    }
    let licenses: Licenses

    /// Each licence by its id.
    var byID: [String: License] {
        let records = licenses.license?.elements ?? []
        return Dictionary(records.map { ($0.id.text, License(id: $0.id.text, name: $0.name?.text ?? "", url: $0.url?.text)) },
                          uniquingKeysWith: { first, _ in first })
    }
}

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
    let place_url: String?
    let place_type: String?
    let place_type_id: LenientValue?
    let photo_count: LenientValue?
    let _content: String?
    let woe_name: String?
    let timezone: String?

    var place: Place {
        Place(id: place_id, woeid: woeid?.text ?? "", fullName: _content ?? woe_name ?? "",
              shortName: woe_name ?? "",
              coordinate: Coordinate(latitude: latitude?.double, longitude: longitude?.double),
              url: place_url ?? "", type: place_type ?? "", typeID: place_type_id?.int,
              photoCount: photo_count?.int, timezone: timezone ?? "")
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
    struct Content: Decodable {
        let _content: String?
    }

    let id: LenientValue
    let owner: String?
    let secret: String?
    let server: LenientValue?
    let title: LenientValue?
    let description: Content?
    let ownername: String?
    let datetaken: String?
    let tags: String?
    let latitude: LenientValue?
    let longitude: LenientValue?
    let place_id: String?
    let url_sq: String?, width_sq: LenientValue?, height_sq: LenientValue?
    let url_q: String?, width_q: LenientValue?, height_q: LenientValue?
    let url_m: String?, width_m: LenientValue?, height_m: LenientValue?

    var photo: Photo {
        var images: [PhotoSize: ImageReference] = [:]
        func add(_ size: PhotoSize, _ url: String?, _ width: LenientValue?, _ height: LenientValue?) {
            if let url, !url.isEmpty { images[size] = ImageReference(url: url, width: width?.int, height: height?.int) }
        }
        add(.square, url_sq, width_sq, height_sq)
        add(.largeSquare, url_q, width_q, height_q)
        add(.medium, url_m, width_m, height_m)
        return Photo(id: id.text, owner: owner ?? "", secret: secret ?? "", server: server?.text ?? "",
                     title: title?.text ?? "", descriptionHTML: description?._content ?? "",
                     ownerName: ownername ?? "", dateTaken: datetaken ?? "",
                     tags: (tags ?? "").split(separator: " ").map(String.init),
                     coordinate: Coordinate(latitude: latitude?.double, longitude: longitude?.double),
                     placeID: place_id ?? "", images: images)
    }
}

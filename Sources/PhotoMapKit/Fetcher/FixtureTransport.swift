import Foundation

/// Answers Flickr API calls from the embedded catalog, recorded exactly as Flickr's REST API answers:
/// `top-places.json` for flickr.places.getTopPlacesList (and, one place of it, flickr.places.getInfo),
/// `licenses.json` for flickr.photos.licenses.getInfo
/// and `photos/{place_id}/page-{n}.json` for flickr.photos.search by place, re-paged to the requested
/// `per_page` as Flickr would, and for flickr.photos.getInfo (one record, reshaped as that method answers). The pages were recorded without `media=photos`: they hold a few videos,
/// which `FlickrSource` leaves out.
public struct FixtureTransport: FlickrTransport {
    /// The catalog folder (`Fixtures/catalog`).
    public let catalog: URL
    /// Each place's recorded photos, read once: paging through a place must not re-read all its pages per page.
    private let placePhotos = PlacePhotoMemo()

    /// Creates a transport over the catalog folder.
    public init(catalog: URL) {
        self.catalog = catalog
    }

    /// The recorded answer, or a `stat: fail` answer for a method the catalog does not hold.
    public func call(method: String, parameters: [String: String]) throws -> Data {
        switch method {
        case "flickr.places.getTopPlacesList":
            return try read(catalog.appendingPathComponent("top-places.json"))
        case "flickr.places.getInfo":
            return try placeInfo(placeID: parameters["place_id"] ?? "")
        case "flickr.photos.licenses.getInfo":
            let file = catalog.appendingPathComponent("licenses.json")
            guard FileManager.default.fileExists(atPath: file.path) else {
                return Self.failure(code: 112, message: "the embedded catalog records no licences")
            }
            return try read(file)
        case "flickr.photos.getInfo":
            return try photoInfo(photoID: parameters["photo_id"] ?? "")
        case "flickr.photos.search":
            guard let placeID = parameters["place_id"] else {
                return Self.failure(code: 3, message: "the embedded catalog answers searches by place_id only")
            }
            return try photosPage(
                placeID: placeID, page: Int(parameters["page"] ?? "") ?? 1,
                perPage: Int(parameters["per_page"] ?? "") ?? 100)
        default:
            return Self.failure(code: 112, message: "Method \"\(method)\" not found")
        }
    }

    /// The top place with this id as flickr.places.getInfo answers it: `{"place": {…}, "stat": "ok"}`,
    /// the full name as `name` (a list's `_content`); an id the catalog lacks fails as Flickr's does.
    private func placeInfo(placeID: String) throws -> Data {
        guard !placeID.isEmpty else { return Self.failure(code: 1, message: "Required parameter missing") }
        let file = catalog.appendingPathComponent("top-places.json")
        let answer = try? JSONSerialization.jsonObject(with: try read(file)) as? [String: Any]
        guard let places = (answer?["places"] as? [String: Any])?["place"] as? [[String: Any]] else {
            throw FlickrError.catalogUnreadable(path: file.path, reason: "not JSON with a places.place list")
        }
        guard var place = places.first(where: { $0["place_id"] as? String == placeID }) else {
            return Self.failure(code: 2, message: "Not a valid Places ID")
        }
        place["name"] = place.removeValue(forKey: "_content")
        place["photo_count"] = nil
        guard let data = try? JSONSerialization.data(withJSONObject: ["place": place, "stat": "ok"]) else {
            throw FlickrError.catalogUnreadable(
                path: file.path,
                reason: "place \(placeID) is not JSON Flickr would send")
        }
        return data
    }

    /// The photo with this id as flickr.photos.getInfo answers it, made from its recorded listing record:
    /// `owner{nsid, username, path_alias}`, title and description as `{"_content"}`, `dates`, `tags{tag[…]}`
    /// and `location`; code 1 ("Photo not found") when no place of the catalog holds it.
    private func photoInfo(photoID: String) throws -> Data {
        let notFound = Self.failure(code: 1, message: "Photo not found")
        let folder = catalog.appendingPathComponent("photos")
        // Only records whose bytes hold the id in quotes are parsed: the rest cannot be the one.
        let needle = Array("\"\(photoID)\"".utf8)
        guard !photoID.isEmpty, let places = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return notFound
        }
        for place in places.sorted() {
            guard let records = try? recordedPhotos(placeID: place) else { continue }
            for bytes in records where bytes.firstRange(of: needle) != nil {
                guard let record = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                    "\(record["id"] ?? "")" == photoID
                else { continue }
                return try Self.infoAnswer(record, path: folder.appendingPathComponent(place).path)
            }
        }
        return notFound
    }

    /// A listing record reshaped as flickr.photos.getInfo's `{"photo": {…}, "stat": "ok"}`.
    private static func infoAnswer(_ record: [String: Any], path: String) throws -> Data {
        let wrapped = { (key: String) -> [String: Any] in
            if let object = record[key] as? [String: Any] { return object }
            return ["_content": record[key] ?? ""]
        }
        var photo: [String: Any] = [:]
        for key in ["id", "secret", "server", "farm", "license", "media"] { photo[key] = record[key] }
        photo["owner"] = [
            "nsid": record["owner"] ?? "", "username": record["ownername"] ?? "",
            "path_alias": record["pathalias"] ?? NSNull(),
        ]
        photo["title"] = wrapped("title")
        photo["description"] = wrapped("description")
        photo["dates"] = [
            "taken": record["datetaken"] ?? "", "takenunknown": record["datetakenunknown"] ?? "0",
            "takengranularity": record["datetakengranularity"] ?? 0,
        ]
        let tags = "\(record["tags"] ?? "")".split(separator: " ")
        photo["tags"] = ["tag": tags.map { ["raw": String($0), "_content": String($0)] }]
        if let latitude = record["latitude"], let longitude = record["longitude"] {
            photo["location"] = [
                "latitude": latitude, "longitude": longitude, "accuracy": record["accuracy"] ?? "16",
                "place_id": record["place_id"] ?? "", "woeid": record["woeid"] ?? "",
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: ["photo": photo, "stat": "ok"]) else {
            throw FlickrError.catalogUnreadable(path: path, reason: "a photo record is not JSON Flickr would send")
        }
        return data
    }

    private func photosPage(placeID: String, page: Int, perPage: Int) throws -> Data {
        // A place id is a folder name: refuse anything that could step out of the catalog.
        guard !placeID.isEmpty,
            placeID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "@") })
        else {
            throw FlickrError.unknownPlace(placeID)
        }
        let photos = try placePhotos.value(for: placeID) { try recordedPhotos(placeID: placeID) }
        let perPage = min(max(perPage, 1), FlickrSource.maximumPerPage)
        // Held while the place is paged through, not after its last page: 100,000 records are ~47 MB.
        if page * perPage >= photos.count { placePhotos.forget(placeID) }
        return PhotosPage.answer(photos, page: page, perPage: perPage, total: photos.count)
    }

    /// Every photo record of a place as its recorded JSON bytes, concatenated from its recorded pages.
    private func recordedPhotos(placeID: String) throws -> RecordBytes {
        let folder = catalog.appendingPathComponent("photos").appendingPathComponent(placeID)
        guard FileManager.default.fileExists(atPath: folder.path) else { throw FlickrError.unknownPlace(placeID) }
        var photos = RecordBytes()
        var recordedPage = 1
        while case let file = folder.appendingPathComponent("page-\(recordedPage).json"),
            FileManager.default.fileExists(atPath: file.path)
        {
            guard let records = PhotosAnswer.recordBytes(in: try read(file))?.records else {
                throw FlickrError.catalogUnreadable(path: file.path, reason: "not JSON with a photos.photo list")
            }
            photos.append(contentsOf: records)
            recordedPage += 1
        }
        return photos
    }

    private func read(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw FlickrError.catalogUnreadable(path: file.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func failure(code: Int, message: String) -> Data {
        (try? JSONSerialization.data(withJSONObject: ["stat": "fail", "code": code, "message": message])) ?? Data()
    }
}

/// Place id → its photo records, filled on first use, forgotten when told.
private final class PlacePhotoMemo: Sendable {
    private let photos = Locked<[String: RecordBytes]>([:])

    func value(for placeID: String, load: () throws -> RecordBytes) throws -> RecordBytes {
        if let known = photos.withLock({ $0[placeID] }) { return known }
        let loaded = try load()
        photos.withLock { $0[placeID] = loaded }
        return loaded
    }

    func forget(_ placeID: String) {
        photos.withLock { $0[placeID] = nil }
    }
}

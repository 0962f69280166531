// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

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
    /// Where each photo's record is (`photoIndex`), made on the first flickr.photos.getInfo.
    private let photoAddresses = Memo<[String: RecordAddress]>()

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
        guard let places = try? JSONDecoder().decode(RecordedPlaces.self, from: try read(file)).places.place else {
            throw FlickrError.catalogUnreadable(path: file.path, reason: "not JSON with a places.place list")
        }
        guard let place = places.first(where: { $0.place_id?.text == placeID }) else {
            return Self.failure(code: 2, message: "Not a valid Places ID")
        }
        return try Self.answer(FixturePlaceInfo(place: FixturePlaceInfo.Place(place)), path: file.path)
    }

    /// The photo with this id as flickr.photos.getInfo answers it, made from its recorded listing record:
    /// `owner{nsid, username, path_alias}`, title and description as `{"_content"}`, `dates`, `tags{tag[…]}`
    /// and `location`; code 1 ("Photo not found") when no place of the catalog holds it. The index says
    /// where the record is: an id from outside costs a dictionary lookup, not a read of every place.
    private func photoInfo(photoID: String) throws -> Data {
        let notFound = Self.failure(code: 1, message: "Photo not found")
        guard !photoID.isEmpty, let address = photoIndex()[photoID],
            let records = try? recordedPhotos(placeID: address.place),
            address.record < records.count,
            let record = try? JSONDecoder().decode(RecordedPhoto.self, from: Data(records[address.record])),
            record.id?.text == photoID
        else { return notFound }
        return try Self.answer(
            FixturePhotoInfo(photo: FixturePhotoInfo.Photo(record)),
            path: catalog.appendingPathComponent("photos").appendingPathComponent(address.place).path)
    }

    /// Each photo id of the catalog and where its record is, read once from every place's pages: of an id
    /// in several places, the first place's (by folder name). A record whose id cannot be read is left out,
    /// as the listing leaves it out.
    func photoIndex() -> [String: RecordAddress] {
        photoAddresses.value {
            let folder = catalog.appendingPathComponent("photos")
            let places = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            var index: [String: RecordAddress] = [:]
            for place in places.sorted() {
                guard let records = try? recordedPhotos(placeID: place) else { continue }
                for (number, bytes) in records.enumerated() {
                    guard let id = RecordAddress.id(of: bytes), index[id] == nil else { continue }
                    index[id] = RecordAddress(place: place, record: number)
                }
            }
            return index
        }
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

    /// An answer as Flickr sends it, `"stat": "ok"` beside its part.
    private static func answer(_ part: some Encodable, path: String) throws -> Data {
        do {
            return try JSONOutput.data(part)
        } catch {
            throw FlickrError.catalogUnreadable(path: path, reason: "a record is not JSON Flickr would send")
        }
    }

    /// A failed call's answer, as Flickr sends it.
    private static func failure(code: Int, message: String) -> Data {
        struct Failure: Encodable {
            var stat = "fail"
            let code: Int
            let message: String
        }
        return (try? JSONOutput.data(Failure(code: code, message: message))) ?? Data()
    }
}

/// Where a photo's record is in the catalog: its place's folder, and its number among the place's records.
struct RecordAddress: Sendable, Equatable {
    let place: String
    let record: Int

    private enum Member: Int, JSONMember {
        case id
        static let lookup = JSONKeyLookup(Member.self)
    }

    /// The `id` of a record's JSON, as its decoding reads it (a string or a number); nil when it has none.
    static func id(of record: ArraySlice<UInt8>) -> String? {
        var id: String?
        _ = try? JSONReader.read(Data(record)) { reader in
            guard try reader.nextKind() == .object else { return try reader.skipValue() }
            try reader.readObject(Member.self) { _, reader in id = try reader.optionalLenient()?.text }
        }
        return id
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

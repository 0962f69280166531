// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Places and photos through Flickr's API methods, over any transport (REST or the embedded catalog):
/// each listing decoded, its records annotated once by `adapter`, then told to the recorder.
public struct FlickrSource: PhotoSource {
    /// The extras a listing asks flickr.photos.search for: what a page shows (owner, licence, the path
    /// alias of the photo's page on Flickr), and `media`, so a video that slips through is known.
    public static let listingExtras =
        "description,license,geo,date_taken,owner_name,path_alias,tags,media,url_sq,url_q,url_m"
    /// Flickr's largest page.
    public static let maximumPerPage = 500
    /// Flickr's largest page for geo queries (place_id, bbox, lat/lon).
    public static let maximumGeoPerPage = 250
    /// How many pages of a listing are read at once (`searchPhotos`): one per core and one being asked for.
    static let pagesRead = ProcessInfo.processInfo.activeProcessorCount + 1
    /// Flickr returns at most this many results for one query.
    public static let maximumResults = 4_000

    private let transport: any FlickrTransport
    /// Annotates each listing's records as they arrive.
    private let adapter: AnnotationAdapter
    /// Where the images on Flickr's host are mirrored (the embedded catalog with `--image-host`).
    private let imageMirror: ImageHost?
    /// The most results one query gives: Flickr's 4,000, or more for the embedded catalog.
    let resultCap: Int
    /// Told of every listing fetched.
    private let recorder: (any ListingRecorder)?
    /// Flickr's list when flickr.photos.licenses.getInfo cannot be had (offline, not cached).
    private let fallbackLicenses: @Sendable () -> [String: License]
    /// flickr.photos.licenses.getInfo, asked once per source.
    private let licenseNames = Memo<[String: License]>()

    /// Creates a source over `transport`, annotating with `adapter`, photos' images on Flickr's host moved
    /// to `imageMirror` when given; `recorder` is told of every listing.
    public init(
        transport: any FlickrTransport, resultCap: Int = FlickrSource.maximumResults,
        adapter: AnnotationAdapter = AnnotationAdapter(), imageMirror: ImageHost? = nil,
        recorder: (any ListingRecorder)? = nil,
        fallbackLicenses: @escaping @Sendable () -> [String: License] = { [:] }
    ) {
        self.transport = transport
        self.adapter = adapter
        self.imageMirror = imageMirror
        self.resultCap = resultCap
        self.recorder = recorder
        self.fallbackLicenses = fallbackLicenses
    }

    /// The top localities (flickr.places.getTopPlacesList, place_type_id 7).
    public func topPlaces() throws -> Listing<Place> {
        // 7 = locality: the cities and towns people browse by.
        try places(method: "flickr.places.getTopPlacesList", parameters: ["place_type_id": "7"])
    }

    /// Flickr's place lookup for a typed name (flickr.places.find: "not a geocoder", an address
    /// rounds up to its city).
    public func findPlaces(_ query: String) throws -> Listing<Place> {
        try places(method: "flickr.places.find", parameters: ["query": query])
    }

    /// One place by its id (flickr.places.getInfo): its names, centre and page, with no listing to
    /// fetch. An id Flickr does not know fails as Flickr answers it (code 2, "Not a valid Places ID").
    public func placeInfo(_ placeID: String) throws -> Place {
        let method = "flickr.places.getInfo"
        return try decode(
            method: method, from: transport.call(method: method, parameters: ["place_id": placeID]),
            part: .place, PlacesAnswer.place)
    }

    /// One photo by its id (flickr.photos.getInfo), made ready and annotated as a listed one is, and told
    /// to the recorder (so the local index finds it next time); nil when Flickr has no such photo to show
    /// (code 1, "Photo not found") or it is a video.
    public func photoInfo(_ photoID: String) throws -> AnnotatedPhoto? {
        let method = "flickr.photos.getInfo"
        let found: (photo: Photo, isPhoto: Bool)
        do {
            found = try decode(
                method: method, from: transport.call(method: method, parameters: ["photo_id": photoID]),
                part: .photo, PhotoInfoAnswer.read)
        } catch FlickrError.apiFailure(_, code: 1?, _) {
            return nil
        }
        guard found.isPhoto else { return nil }
        let entry = adapter.annotated(ready(found.photo))
        recorder?.record(places: [], photos: [entry])
        return entry
    }

    private func places(method: String, parameters: [String: String]) throws -> Listing<Place> {
        let page = try decode(
            method: method, from: transport.call(method: method, parameters: parameters),
            part: .places, PlacesAnswer.read)
        let listing = Listing(
            entries: adapter.annotated(page.places), total: page.total,
            skipped: page.skipped.map { "place \($0)" })
        recorder?.record(places: listing.entries, photos: [])
        return listing
    }

    /// Flickr's licences by id (flickr.photos.licenses.getInfo).
    public func licenses() throws -> [String: License] {
        let method = "flickr.photos.licenses.getInfo"
        return try decode(
            method: method, from: transport.call(method: method, parameters: [:]), part: .licenses,
            LicensesAnswer.read)
    }

    /// Up to `limit` photos taken in the place (flickr.photos.search with place_id), told to `arriving` page by page.
    public func photos(
        inPlace placeID: String, limit: Int,
        arriving: (ArraySlice<AnnotatedPhoto>) -> Void
    ) throws -> Listing<Photo> {
        try searchPhotos(["place_id": placeID], limit: limit, arriving: arriving)
    }

    /// Pages through flickr.photos.search until `limit` photos or the last page. Photos only
    /// (`media=photos`; a video in the answer anyway is dropped), their licences named.
    public func searchPhotos(_ criteria: [String: String], limit: Int) throws -> Listing<Photo> {
        try searchPhotos(criteria, limit: limit, arriving: { _ in })
    }

    /// The same, each page's new entries told to `arriving` before the listing goes on.
    func searchPhotos(
        _ criteria: [String: String], limit: Int,
        arriving: (ArraySlice<AnnotatedPhoto>) -> Void
    ) throws -> Listing<Photo> {
        let method = "flickr.photos.search"
        let wanted = min(max(limit, 0), resultCap)
        // Each photo is made ready (licence named, images on the mirror) and annotated as its page is read:
        // one array of entries, never a second of every bare record beside it.
        var entries: [AnnotatedPhoto] = []
        var seen = Set<String>()
        var skipped: [String] = []
        var total: Int?
        let isGeoQuery = ["place_id", "bbox", "lat", "woe_id"].contains { criteria[$0] != nil }
        let perPage = min(wanted, isGeoQuery ? Self.maximumGeoPerPage : Self.maximumPerPage)
        // Flickr serves no result past the 4,000th, whatever `pages` says.
        let lastServedPage = (resultCap + perPage - 1) / max(perPage, 1)
        // Asks for a page (calls go one at a time, in order) and reads its answer on another thread.
        func read(_ page: Int) throws -> Pending<PhotosAnswer.Page> {
            var parameters = criteria
            parameters["extras"] = Self.listingExtras
            parameters["media"] = "photos"
            parameters["per_page"] = String(perPage)
            parameters["page"] = String(page)
            let body = try transport.call(method: method, parameters: parameters)
            return Pending { try decode(method: method, from: body, part: .photos, PhotosAnswer.read) }
        }
        var page = 1
        // The pages asked for from `page` on, in order, being read: pages that will be wanted whatever the
        // ones before bring are asked for while those are read (reading 250 records costs about what asking
        // does), once an answer has said how many pages there are.
        var asked: [Result<Pending<PhotosAnswer.Page>, any Error>] = []
        if wanted > 0 && lastServedPage > 0 { asked.append(Result { try read(page) }) }
        var announcedPages: Int?
        while !asked.isEmpty {
            while let announcedPages, asked.count < Self.pagesRead, case .success? = asked.last,
                page + asked.count <= min(announcedPages, lastServedPage),
                entries.count + perPage * asked.count < wanted
            {
                asked.append(Result { try read(page + asked.count) })
            }
            let answer = try asked.removeFirst().get().wait()
            total = answer.total ?? total
            // Grown once to the listing's size rather than doubled past it (100,000 entries take ~47 MB).
            if page == 1, let total { entries.reserveCapacity(min(wanted, total)) }
            skipped += answer.skipped.map { "photo on page \(page), \($0)" }
            var added = 0
            let firstNew = entries.count
            for (photo, isPhoto) in answer.photos {
                // A video is no photo, but it is news: the listing goes on past it.
                guard isPhoto else {
                    if seen.insert(photo.id).inserted { added += 1 }
                    continue
                }
                guard !photo.id.isEmpty else {
                    skipped.append("photo on page \(page): empty id")
                    continue
                }
                // Flickr can repeat a photo on consecutive pages while its index shifts.
                guard seen.insert(photo.id).inserted, entries.count < wanted else { continue }
                entries.append(adapter.annotated(ready(photo)))
                added += 1
            }
            if entries.count > firstNew { arriving(entries[firstNew...]) }
            // A page that brings nothing new means the listing is exhausted, whatever `pages` claims.
            if added == 0 || page >= answer.pages ?? page { break }
            announcedPages = answer.pages
            page += 1
            guard entries.count < wanted && page <= lastServedPage else { break }
            if asked.isEmpty { asked.append(Result { try read(page) }) }
        }
        let listing = Listing(entries: entries, total: total, skipped: skipped)
        recorder?.record(places: [], photos: listing.entries)
        return listing
    }

    /// A listed photo as pages show it: its licence named (flickr.photos.licenses.getInfo, asked the first
    /// time a listed photo has a licence), its images on the mirror when there is one.
    private func ready(_ photo: Photo) -> Photo {
        var photo = imageMirror.map(photo.rehosted(on:)) ?? photo
        if let license = photo.license {
            photo.license = license.named(from: licenseNames.value { (try? licenses()) ?? fallbackLicenses() })
        }
        return photo
    }

    /// Reads an answer in one pass: JSONP unwrapped, `stat: fail` turned into an error, the method's
    /// `part` read by `read`.
    func decode<Part>(
        method: String, from body: Data, part key: AnswerMember,
        _ read: (inout JSONReader) throws -> AnswerPart<Part>
    ) throws -> Part {
        let answer: FlickrAnswer<Part>
        do {
            answer = try FlickrAnswer.read(Self.unwrappingJSONP(body), key: key, part: read)
        } catch {
            throw FlickrError.malformedAnswer(method: method, detail: "\(error)")
        }
        switch (answer.stat, answer.part) {
        case ("ok"?, .read(let part)?):
            return part
        case ("ok"?, .malformed(let problem)?):
            throw FlickrError.malformedAnswer(method: method, detail: problem)
        case ("ok"?, nil):
            throw FlickrError.malformedAnswer(method: method, detail: "missing field \"\(key.rawValue)\"")
        case ("fail"?, _):
            throw FlickrError.apiFailure(
                method: method, code: answer.code?.int,
                message: answer.message ?? "no message")
        default:
            throw FlickrError.malformedAnswer(method: method, detail: "no \"stat\" field")
        }
    }

    /// The JSON inside `jsonFlickrApi(...)`, which Flickr sends when `nojsoncallback=1` is missing.
    static func unwrappingJSONP(_ body: Data) -> Data {
        let prefix = Data("jsonFlickrApi(".utf8)
        let start = body.firstIndex(where: { !$0.isASCIIWhitespace }) ?? body.startIndex
        guard body[start...].starts(with: prefix),
            let close = body.lastIndex(of: UInt8(ascii: ")")), close > start + prefix.count
        else { return body }
        return body[(start + prefix.count)..<close]
    }
}

private extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

extension FlickrSource {
    /// The status of an answer (`stat`, `code`, `message`), or nil when the body is not JSON.
    static func status(of body: Data) -> FlickrAnswer<Never>? {
        try? FlickrAnswer.status(of: unwrappingJSONP(body))
    }
}

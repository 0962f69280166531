import Dispatch
import Foundation

/// What `photomap serve` answers: the same pages as `export` and `--map` (one `PageBuilder`), whose
/// images are fetched through the thumbnail cache when the browser asks for them, and the find and
/// search API the pages' search box calls.
///
/// - `/` the top places · `/places/ID?limit=N` a place's photos · `/photos/ID` a photo · `/recent`
/// - `/squares/ID`, `/images/ID` a photo's 75×75 square and medium image (from the cache, or fetched)
/// - `/assets/NAME` the pages' scripts, styles and basemap
/// - `/api/find?q=…[&lat=…&lon=…]` and `/api/search?q=…&lat=…&lon=…[&radius=…]`: GeoJSON
///
/// Only GET and HEAD; only requests whose `Host` names this server (DNS rebinding); ids are looked up
/// among the records this server has listed, then in the local index and the source (a link shared or
/// bookmarked), never used as paths.
public final class ServerRoutes: Sendable {
    /// What the routes answer from.
    public struct Services: Sendable {
        public var source: any PhotoSource
        public var cache: ThumbnailCache
        public var assets: PageAssets
        public var adapter: AnnotationAdapter
        public var credits: PageCredits
        /// Where the embedded catalog's images are mirrored, if they are (`PageBuilder.catalogMirror`).
        public var catalogMirror: ImageHost?
        public var finder: LocationFinder
        public var search: PhotoSearch
        public var recents: any RecentsStore
        /// One line for each failure worth telling the person running the server.
        public var log: @Sendable (String) -> Void

        /// The services.
        public init(
            source: any PhotoSource, cache: ThumbnailCache, assets: PageAssets, adapter: AnnotationAdapter,
            credits: PageCredits,
            catalogMirror: ImageHost?, finder: LocationFinder, search: PhotoSearch, recents: any RecentsStore,
            log: @escaping @Sendable (String) -> Void
        ) {
            self.source = source
            self.cache = cache
            self.assets = assets
            self.adapter = adapter
            self.credits = credits
            self.catalogMirror = catalogMirror
            self.finder = finder
            self.search = search
            self.recents = recents
            self.log = log
        }
    }

    /// The records this server has listed, by id: what `/places/ID`, `/photos/ID` and the images
    /// look up.
    private struct Known {
        var topPlaces: [AnnotatedPlace]?
        var places: [String: AnnotatedPlace] = [:]
        var photos: [String: AnnotatedPhoto] = [:]
        var listings: [String: [AnnotatedPhoto]] = [:]
    }

    /// Most photos a place page lists (Flickr's own limit for one query).
    public static let maximumLimit = FlickrSource.maximumResults
    /// Most results one search answers.
    static let maximumResults = 500

    /// Most listings kept (each place and limit asked for is one).
    static let maximumListings = 256
    /// Slow work (listings, lookups) at once; the rest waits its turn, within the deadline.
    static let workers = 16
    /// Slow work waiting its turn at most; past it, 503 at once. Each waits with its connection
    /// suspended, which MHD does not watch: a client that gave up still holds its connection until the
    /// work answers, so an unbounded queue of abandoned slow requests filled the connection limit and
    /// the server stopped answering anything (the fuzzer's server-bytes lead).
    static let maximumWaiting = 64

    private let services: Services
    private let pages: PageBuilder<ServedLinks>
    private let slowWork = WorkPool(width: ServerRoutes.workers)
    private let known = Locked(Known())
    private let hosts = Locked<Set<String>>([])
    /// The port, and whether the server listens on every address.
    private let port = Locked<(number: Int, everyAddress: Bool)>((0, false))
    private let placeholder: Data
    private let assetFiles: [String: URL]

    /// Routes over `services`.
    public init(services: Services) {
        self.services = services
        var pages = PageBuilder(links: ServedLinks(images: services.cache), credits: services.credits)
        pages.catalogMirror = services.catalogMirror
        self.pages = pages
        assetFiles = Dictionary(
            services.assets.files.map { ($0.name, $0.source) },
            uniquingKeysWith: { first, _ in first })
        placeholder = assetFiles["placeholder.svg"].flatMap { FileManager.default.contents(atPath: $0.path) } ?? Data()
    }

    /// Accepts requests whose `Host` is `address` or a loopback name, on `port`; listening on every
    /// address (0.0.0.0, ::), any IP literal of this machine's on that port (never a name: DNS
    /// rebinding comes through names).
    public func allow(address: String, port: Int) {
        self.port.withLock { $0 = (port, address == "0.0.0.0" || address == "::") }
        let names = ["127.0.0.1", "localhost", "[::1]", address.contains(":") ? "[\(address)]" : address]
        hosts.withLock { hosts in
            for name in names {
                hosts.insert("\(name):\(port)".lowercased())
                if port == 80 { hosts.insert(name.lowercased()) }
            }
        }
    }

    /// Also accepts requests naming `host` as users type it in front of a proxy: a name, or a name and a
    /// port (`photos.example.org`, `localhost:8088`). Exactly that `Host` is added; every other name is
    /// still refused.
    public func allow(publicHost host: String) {
        hosts.withLock { _ = $0.insert(host.lowercased()) }
    }

    /// The answer to `request`.
    public func handle(_ request: ServerRequest) -> HTTPServer.Reply {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .now(errorPage(405, "Only GET and HEAD are answered here.", headers: [("Allow", "GET, HEAD")]))
        }
        guard let host = request.headers["host"], isAllowed(host: host.lowercased()) else {
            // A name other than this server's: a page elsewhere (DNS rebinding) must not reach it.
            return .now(errorPage(421, "This server answers only to its own address."))
        }
        // A page of another site may not make the browser fetch here (each listing can cost a Flickr
        // call on the user's key): browsers say where a request comes from.
        if request.headers["sec-fetch-site"] == "cross-site" {
            return .now(errorPage(403, "This server answers only its own pages."))
        }
        let segments = request.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).dropFirst()
        let route = segments.first.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? "" } ?? ""
        let rest = segments.first.map { String($0.drop { $0 != "/" }.dropFirst()) } ?? ""
        switch (route, rest.isEmpty) {
        case ("", true): return later(failing: "The top places could not be listed") { [self] in try topPlacesPage() }
        case ("places", false): return placePage(rest, limit: request.query["limit"])
        case ("photos", false):
            guard Self.isPhotoID(rest) else { return .now(errorPage(400, "Not a photo id: \(Self.photoIDRule).")) }
            return later(failing: "The photo could not be shown") { [self] in try photoPage(rest) }
        case ("recent", true):
            return later(failing: "The recent photos could not be read") { [self] in try recentPage() }
        case ("squares", false): return image(rest, size: .square, request: request)
        case ("images", false): return image(rest, size: .medium, request: request)
        case ("assets", false): return .now(asset(rest))
        case ("api", false) where rest == "find": return find(request.query)
        case ("api", false) where rest == "search": return searchAround(request.query)
        default: return .now(errorPage(404, "Nothing here."))
        }
    }

    private func isAllowed(host: String) -> Bool {
        if hosts.withLock({ $0.contains(host) }) { return true }
        let (number, everyAddress) = port.withLock { $0 }
        guard everyAddress, host.hasSuffix(":\(number)") else { return false }
        var name = String(host.dropLast(":\(number)".count))
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var address = in6_addr()
        return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
    }

    // MARK: - Pages

    /// Whether a served photo id has a shape photomap knows: Flickr's, or an imported photo's.
    static func isPhotoID(_ id: String) -> Bool { FlickrID.isPhotoID(id) || LocalPhotoID.isValid(id) }
    /// The rule, as an error says it.
    static let photoIDRule =
        FlickrID.photoIDRule + ", or an imported photo's ('\(LocalPhotoID.prefix)' and "
        + "\(LocalPhotoID.digits) hex digits)"

    private func topPlacesPage() throws -> ServerResponse {
        let places = try topPlaces()
        let features = pages.features(of: places, on: "/") { pages.links.placePage($0) }
        return page(
            try pages.listPage(
                at: "/", title: "Top places",
                subtitle: Quantity.words(places.count, "place", "places"),
                features: features, back: nil, elsewhere: ("/recent", "Recently viewed"),
                defaultView: "list"))
    }

    /// The top places, listed once per server.
    private func topPlaces() throws -> [AnnotatedPlace] {
        if let places = known.withLock({ $0.topPlaces }) { return places }
        let places = try services.source.topPlaces().entries
        known.withLock { known in
            known.topPlaces = places
            for place in places { known.places[place.record.id] = place }
        }
        return places
    }

    private func placePage(_ id: String, limit text: String?) -> HTTPServer.Reply {
        // Checked here, not by the source: an id of another shape would go to Flickr as it is.
        guard FlickrID.isPlaceID(id) else { return .now(errorPage(400, "Not a place id: \(FlickrID.placeIDRule).")) }
        guard let limit = text.map({ Int($0) }) ?? 100, (1...Self.maximumLimit).contains(limit) else {
            return .now(errorPage(400, "limit must be a whole number from 1 to \(Self.maximumLimit)."))
        }
        return later(failing: "The place's photos could not be listed") { [self] in
            let place: Annotation?, photos: [AnnotatedPhoto]
            do {
                place = try self.place(id)?.annotation
                photos = try listing(of: id, limit: limit)
            } catch let error as FlickrError where error.isUnknownPlace {
                return errorPage(404, "There is no place with that id; the top places are on the first page.")
            }
            let title = place?.title ?? "Photos of \(id)"
            let path = "/places/" + ServedLinks.segment(id)
            let subtitle = Quantity.words(photos.count, "photo", "photos") + (place.map { " · \($0.subtitle)" } ?? "")
            return page(
                try pages.listPage(
                    at: path, title: title, subtitle: subtitle,
                    features: try pages.features(of: photos, on: path),
                    back: ("/", "Top places"), defaultView: "map"))
        }
    }

    /// The place with this id: among the top places (listed once per server), else as the source
    /// describes it (flickr.places.getInfo, which throws for a place that does not exist); nil when the
    /// source cannot describe places.
    private func place(_ id: String) throws -> AnnotatedPlace? {
        if let place = known.withLock({ $0.places[id] })
            ?? ((try? topPlaces()) ?? []).first(where: { $0.record.id == id })
        {
            return place
        }
        guard let places = services.source as? any PlaceDescribing else { return nil }
        // Not kept: the source's answer cache keeps it, and ids from outside would grow the table.
        let place = try places.placeInfo(id)
        return Annotated(place, services.adapter.annotation(for: place))
    }

    /// A place's photos, fetched through the source the first time they are asked for (at this limit).
    private func listing(of placeID: String, limit: Int) throws -> [AnnotatedPhoto] {
        let key = "\(placeID)\n\(limit)"
        if let photos = known.withLock({ $0.listings[key] }) { return photos }
        let photos = try services.source.photos(inPlace: placeID, limit: limit).entries
        known.withLock { known in
            // Full: one listing goes (asked again, it is fetched again); its photos stay known.
            if known.listings.count >= Self.maximumListings, let any = known.listings.keys.first {
                known.listings[any] = nil
            }
            known.listings[key] = photos
            for photo in photos { known.photos[photo.record.id] = photo }
        }
        return photos
    }

    private func photoPage(_ id: String) throws -> ServerResponse {
        guard
            let entry = try known.withLock({ $0.photos[id] }) ?? recentPhotos().first(where: { $0.record.id == id })
                ?? lookedUpPhoto(id)
        else {
            return errorPage(404, "There is no photo with that id.")
        }
        let photo = entry.record
        known.withLock { $0.photos[id] = entry }
        do {
            try services.recents.viewed(photo)
        } catch {
            services.log("could not remember photo \(photo.id) as viewed: \(error)")
        }
        let place = known.withLock { $0.places[photo.placeID] }
        let back =
            place.map { (pages.links.placePage($0.record), $0.annotation.title) }
            ?? ("/recent", "Recently viewed")
        return page(try pages.photoPage(entry, at: pages.links.photoPage(photo), back: back))
    }

    /// The photos recently viewed, annotated as they are read (they were kept as records).
    private func recentPhotos() throws -> [AnnotatedPhoto] {
        services.adapter.annotated(try services.recents.photos())
    }

    private func recentPage() throws -> ServerResponse {
        let photos = try recentPhotos()
        known.withLock { known in for photo in photos { known.photos[photo.record.id] = photo } }
        return page(
            try pages.listPage(
                at: "/recent", title: "Recently viewed",
                subtitle: Quantity.words(photos.count, "photo", "photos"),
                features: try pages.features(of: photos, on: "/recent"),
                back: ("/", "Top places"), defaultView: "list"))
    }

    // MARK: - Images and assets

    private func image(_ id: String, size: PhotoSize, request: ServerRequest) -> HTTPServer.Reply {
        guard Self.isPhotoID(id) else { return .now(placeholderImage(400)) }
        if let photo = known.withLock({ $0.photos[id]?.record }) {
            return image(of: photo, size: size, request: request)
        }
        // Listed by another server sharing the index (behind a proxy), or by this one before it restarted.
        return .later { [self] answer in
            let accepted = slowWork.submit(
                {
                    let entry: AnnotatedPhoto
                    do {
                        guard let indexed = try self.lookedUpPhoto(id) else {
                            return answer(self.placeholderImage(404))
                        }
                        entry = indexed
                    } catch {
                        // The shared index is away (a database restarting): worth asking again shortly.
                        self.services.log("photo \(id) could not be looked up: \(error)")
                        return answer(
                            self.placeholderImage((error as? DatabaseError)?.isUnavailable == true ? 503 : 502))
                    }
                    switch self.image(of: entry.record, size: size, request: request) {
                    case let .now(response): answer(response)
                    case let .later(work): work(answer)
                    }
                }, maximumWaiting: Self.maximumWaiting)
            if !accepted { answer(self.placeholderImage(503)) }
        }
    }

    /// A photo this server has not listed (a link shared or bookmarked): the local index's, else the
    /// source's own answer for it (flickr.photos.getInfo), now known here too; nil when neither has it.
    private func lookedUpPhoto(_ id: String) throws -> AnnotatedPhoto? {
        if let indexed = try indexedPhoto(id) { return indexed }
        guard let source = services.source as? any PhotoDescribing, let entry = try source.photoInfo(id) else {
            return nil
        }
        known.withLock { $0.photos[id] = entry }
        return entry
    }

    /// A photo the local index holds (any server sharing it may have listed it), now known here too.
    private func indexedPhoto(_ id: String) throws -> AnnotatedPhoto? {
        guard let indexed = try services.search.index.open().photo(id: id) else { return nil }
        // Kept as its source gave it: the catalog's images come from this server's mirror, as listed ones do.
        let photo = services.catalogMirror.map(indexed.rehosted(on:)) ?? indexed
        guard let entry = services.adapter.annotated([photo]).first else { return nil }
        known.withLock { $0.photos[id] = entry }
        return entry
    }

    private func image(of photo: Photo, size: PhotoSize, request: ServerRequest) -> HTTPServer.Reply {
        let miss: ImageMiss
        switch services.cache.lookUpImage(for: photo, size: size) {
        case let .cached(image): return .now(imageResponse(image, request: request))
        case let .missing(missed): miss = missed
        }
        let cache = services.cache, log = services.log
        return .later { [self] answer in
            // Answered from what the cache stored: the entry is not looked up and opened again.
            cache.fetch(miss, queue: .global()) { result in
                switch result {
                case let .success(image):
                    answer(self.imageResponse(image, request: request))
                case let .failure(error):
                    log("no \(size == .medium ? "image" : "square") for photo \(photo.id): \(error)")
                    answer(self.placeholderImage(error == .noImage(photoID: photo.id) ? 404 : 502))
                }
            }
        }
    }

    /// A cached image: its name is the SHA-256 of its URL, so it is its own ETag.
    private func imageResponse(_ image: CachedImage, request: ServerRequest) -> ServerResponse {
        let tag = "\"\(image.name)\""
        let headers = Self.commonHeaders + [("ETag", tag), ("Cache-Control", "public, max-age=86400")]
        if request.headers["if-none-match"]?.split(separator: ",")
            .contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) == true
        {
            return ServerResponse(status: 304, headers: headers)
        }
        return ServerResponse(
            status: 200,
            headers: headers + [("Content-Type", image.format == .png ? "image/png" : "image/jpeg")],
            body: image.body)
    }

    /// The pages' placeholder, with an error status: the image could not be had.
    private func placeholderImage(_ status: Int) -> ServerResponse {
        ServerResponse(
            status: status,
            headers: Self.commonHeaders + [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")],
            body: .bytes(placeholder))
    }

    private func asset(_ name: String) -> ServerResponse {
        guard let file = assetFiles[name] else { return errorPage(404, "No such asset.") }
        guard let (opened, bytes) = OpenFile.reading(file.path) else {
            return errorPage(503, "The asset could not be read.")
        }
        let types = [
            "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
            "png": "image/png",
        ]
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders
                + [
                    ("Content-Type", types[file.pathExtension] ?? "application/octet-stream"),
                    ("Cache-Control", "public, max-age=3600"),
                ],
            body: .open(opened, bytes: bytes))
    }

    // MARK: - API

    private func find(_ query: [String: String]) -> HTTPServer.Reply {
        guard let text = Self.queryText(query) else { return .now(apiError(400, "q must be 1 to 200 characters")) }
        // lat and lon only favour what is near them here: a point that is no place favours nothing.
        let near = try? SearchArea.centre(latitude: query["lat"], longitude: query["lon"])
        return later(failing: "The place could not be looked up", asJSON: true) { [self] in
            let results = try services.finder.find(text, near: near, limit: 1)
            // "exact": the query named the location outright, so the page centres on it rather than
            // searching photos for the query's words.
            return geoJSON(
                results.map { MapData.Feature($0.entry.annotation, thumbnail: nil, link: nil) },
                match: results.first.map { $0.isExact ? "exact" : "partial" })
        }
    }

    private func searchAround(_ query: [String: String]) -> HTTPServer.Reply {
        guard let text = Self.queryText(query) else { return .now(apiError(400, "q must be 1 to 200 characters")) }
        let near: Coordinate?, radius: Double
        do {
            near = try SearchArea.centre(latitude: query["lat"], longitude: query["lon"])
            radius = try SearchArea.radius(query["radius"], online: services.search.isOnline)
        } catch {
            let names: [SearchAreaError.Field: String] = [.latitude: "lat", .longitude: "lon", .radius: "radius"]
            let given = error.value.isEmpty ? "missing" : "not '\(error.value)'"
            return .now(
                apiError(400, "\(names[error.field] ?? error.field.rawValue) must be \(error.allowed), \(given)"))
        }
        return later(failing: "The search failed", asJSON: true) { [self] in
            let hits = try services.search.search(text, near: near, radius: radius, limit: Self.maximumResults)
            let annotations = hits.map(\.annotation)
            // Photos found become records of this server, so their squares and pages answer.
            known.withLock { known in
                for annotation in annotations where annotation.kind == .photo && known.photos[annotation.id] == nil {
                    known.photos[annotation.id] = Annotated(pages.photo(of: annotation), annotation)
                }
            }
            return geoJSON(try pages.features(of: annotations, on: "/api/search"))
        }
    }

    private static func queryText(_ query: [String: String]) -> String? {
        guard let text = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines), (1...200).contains(text.count)
        else { return nil }
        return text
    }

    /// The API's JSON: members in one order (JSONEncoder's follows a dictionary's, which changes from one
    /// answer to the next), so the same data gives the same bytes.
    private static var json: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// A GeoJSON FeatureCollection (RFC 7946), with `match` as a foreign member when given.
    private func geoJSON(_ features: [MapData.Feature], match: String? = nil) -> ServerResponse {
        struct Collection: Encodable {
            let type = "FeatureCollection"
            let features: [MapData.Feature]
            let match: String?
        }
        let body = (try? Self.json.encode(Collection(features: features, match: match))) ?? Data()
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders + [
                ("Content-Type", "application/geo+json"),
                ("Cache-Control", "no-store"),
            ],
            body: .bytes(body))
    }

    private func apiError(_ status: Int, _ message: String) -> ServerResponse {
        let body = (try? Self.json.encode(["error": message])) ?? Data()
        return ServerResponse(
            status: status, headers: Self.commonHeaders + [("Content-Type", "application/json")],
            body: .bytes(body))
    }

    // MARK: - Answers

    /// Header fields every answer carries.
    static let commonHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private static let pageHeaders =
        commonHeaders + [
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"),
            // frame-ancestors works only in the header, not in the pages' <meta>: no site may frame these.
            (
                "Content-Security-Policy",
                PageRenderer.contentSecurityPolicy(servesAPI: true) + "; frame-ancestors 'none'"
            ),
        ]

    private func page(_ html: String) -> ServerResponse {
        ServerResponse(status: 200, headers: Self.pageHeaders, body: .bytes(Data(html.utf8)))
    }

    /// A small page saying what went wrong; the message is escaped, and is the routes' own words
    /// (never an error's, which may hold a path).
    private func errorPage(
        _ status: Int, _ message: String,
        headers: [(name: String, value: String)] = []
    ) -> ServerResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(status) · photomap</title></head>
            <body><h1>\(status)</h1><p>\(HTML.text(message))</p><p><a href="/">Top places</a></p></body></html>

            """
        return ServerResponse(status: status, headers: Self.pageHeaders + headers, body: .bytes(Data(html.utf8)))
    }

    /// How long a page or API answer may take before the browser is told 504 (the work goes on).
    static let deadline: TimeInterval = 60

    /// Work that may wait (a listing from Flickr, the gazetteer, SQLite) on one of `workers` threads,
    /// the connection suspended meanwhile, answered 504 past `deadline`, or 503 at once when
    /// `maximumWaiting` jobs wait already. An error is logged as it is, and
    /// answered with `failure` only: the error may name local paths, which stay on this machine.
    private func later(
        failing failure: String, asJSON: Bool = false,
        _ work: @escaping @Sendable () throws -> ServerResponse
    ) -> HTTPServer.Reply {
        .later { [self] answer in
            let failed: @Sendable (Int, String) -> ServerResponse = { status, message in
                asJSON ? self.apiError(status, message) : self.errorPage(status, message)
            }
            let accepted = self.slowWork.submit(
                {
                    do {
                        answer(try work())
                    } catch let error as DatabaseError where error.isUnavailable {
                        // The shared database is away (restarting): worth trying again shortly.
                        self.services.log("\(error)")
                        answer(failed(503, "\(failure): the database is not available; try again shortly"))
                    } catch let error as HTTPError where error.isTimeout {
                        self.services.log("\(error)")
                        answer(failed(504, "\(failure): the source took too long"))
                    } catch {
                        self.services.log("\(error)")
                        answer(failed(502, "\(failure); the server's log says why"))
                    }
                }, maximumWaiting: Self.maximumWaiting)
            guard accepted else { return answer(failed(503, "\(failure): the server is busy; try again shortly")) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline) {
                answer(failed(504, "\(failure): the answer took too long"))
            }
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport

/// What `photomap serve` answers: the same pages as `export` and `--map` (one `PageBuilder`), whose
/// images are fetched through the thumbnail cache when the browser asks for them, and the find and
/// search API the pages' search box calls.
///
/// - `/` the top places · `/places/ID?limit=N` a place's photos · `/photos/ID` a photo · `/recent`
/// - `/map` the map of everything (`ServerRoutes+Map`)
/// - `/trips` the imported photos' trips · `/trips/ID` a trip · `/visited` their places · `/visited/ID` a
///   country's or region's photos (`ServerRoutes+Trips`)
/// - `/squares/ID`, `/images/ID` a photo's 75×75 square and medium image (from the cache, or fetched)
/// - `/assets/NAME` the pages' scripts, styles and basemap; `/assets/coasts/LEVEL/X/Y.js` coast tiles;
///   `/favicon.ico` the pages' icon (`assets/favicon.svg`), for browsers that ask there
/// - `/api/find?q=…[&lat=…&lon=…]` and `/api/search?q=…&lat=…&lon=…[&radius=…]`: GeoJSON
/// - `/api/map/Z/X/Y.json[?from=YYYY-MM&to=YYYY-MM]`: the map of everything's clusters (`ServerRoutes+Map`)
///
/// - `/login`, `/logout`, `/api/session`: sign-in (`ServerRoutes+Session`)
///
/// Every answer is its viewer's: anyone not signed in gets the public view (these routes); a signed-in
/// viewer, their role's own routes (`ServerRoutes+Viewers`), whose listings and caches answer no one else.
///
/// GET and HEAD, which change nothing; POST only through `StateChangePolicy`; only requests whose `Host` names this server (DNS rebinding); ids are looked up
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
        /// The imported photos' GPS tracks, as the catalog held them when the server started
        /// (`PageBuilder.tracks`).
        public var tracks: TrackLines?
        /// Reads the tracks again, when the source's version moves on (a `geotag` with new tracks); nil
        /// for a source without tracks.
        public var readTracks: (@Sendable () throws -> TrackLines?)?
        /// Who may sign in, and their sessions; nil: no sign-in (`/login` is not there).
        public var signIn: SignIn?
        /// Locations the owner sets from the pages (`ServerRoutes+Locations`); nil: not here.
        public var locationEditing: LocationEditing?
        /// The services a signed-in viewer of a role is answered from (their source, recents, tracks and
        /// imported photos), made the first time one asks; nil: everyone is answered the public view.
        public var view: (@Sendable (Role) throws -> Services)?
        /// The imported photos as this view's viewer may see them, where the shared index (which holds what
        /// everyone may see) falls short: a signed-in viewer's. Nil for the public view.
        public var viewCatalog: (@Sendable () throws -> (any LocalCatalogStore)?)?
        /// Where this view's imported photos are indexed for search (with `viewCatalog`): the view's own
        /// index, never the shared one.
        public var viewIndex: (any SearchIndexStore)?

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
    /// work answers, so without a bound abandoned slow requests fill the connection limit and the server
    /// stops answering anything.
    static let maximumWaiting = 64
    /// How long a page or API answer may take before the browser is told 504 (the work goes on).
    static let deadline: TimeInterval = 60
    /// What a 503 asks the browser to wait before trying again.
    static let retryAfterSeconds = 2

    let services: Services
    /// The pages, as `export` makes them, with links to this server's routes, and the tracks as last read.
    var pages: PageBuilder<ServedLinks> {
        var pages = builder
        pages.tracks = tracks.withLock { $0 }
        return pages
    }
    private let builder: PageBuilder<ServedLinks>
    /// The tracks the pages draw: read again with the records (`forgetIfSourceChanged`).
    let tracks: Locked<TrackLines?>
    /// Where slow work runs (`later`): one pool for every view.
    let slowWork: WorkPool
    /// The records this server has listed (`ServerRoutes+Records`).
    let known = Locked(Known())
    /// The top places, once listed.
    let topPlacesListed = Memo<[AnnotatedPlace]>()
    /// The trips, once found (`ServerRoutes+Trips`).
    let tripsFound = Memo<TripAlbum>()
    /// The version of a changing source these records are of, and when it was last asked.
    let sourceVersion = Locked<(version: Int, asked: Date)?>(nil)
    /// The names this server answers to: one set for every view.
    let hosts: AllowedHosts
    /// Whose view this is: nil for the public one, which answers anyone not signed in.
    let viewer: Role?
    /// The signed-in viewers' views, by role, each made the first time one asks (`ServerRoutes+Viewers`).
    let views = Locked<[Role: ServerRoutes]>([:])
    /// Sessions as last read, by their token's digest, for `sessionReadAgain` seconds: a page's many
    /// requests read the database once (`ServerRoutes+Session`); one table for every view.
    let sessionsRead: Locked<[String: (session: Session?, read: Date)]>
    /// One filling of the view's own search index at a time.
    let viewIndexing = Locked(())
    /// The pages' placeholder image, answered in place of an image that could not be had.
    let placeholder: Data
    /// The files `/assets/NAME` serves, by name: `PageAssets.files`, and nothing else.
    let assetFiles: [String: URL]

    /// Routes over `services`, answering anyone not signed in.
    public convenience init(services: Services) {
        self.init(services: services, viewer: nil, sharing: nil)
    }

    /// The routes of `viewer`'s view, sharing the public view's work pool and host names.
    init(services: Services, viewer: Role?, sharing root: ServerRoutes?) {
        self.services = services
        self.viewer = viewer
        slowWork = root?.slowWork ?? WorkPool(width: Self.workers)
        hosts = root?.hosts ?? AllowedHosts()
        sessionsRead = root?.sessionsRead ?? Locked([:])
        var pages = PageBuilder(links: ServedLinks(images: services.cache), credits: services.credits)
        pages.catalogMirror = services.catalogMirror
        pages.listsCoastTiles = false
        pages.linksWorldMap = services.source is any MapTiling
        pages.linksTrips = services.source is any TripDescribing
        builder = pages
        tracks = Locked(services.tracks)
        assetFiles = Dictionary(
            services.assets.files.map { ($0.name, $0.source) },
            uniquingKeysWith: { first, _ in first })
        placeholder = assetFiles["placeholder.svg"].flatMap { FileManager.default.contents(atPath: $0.path) } ?? Data()
    }

    /// Accepts requests whose `Host` is `address` or a loopback name, on `port`; listening on every
    /// address (0.0.0.0, ::), any IP literal of this machine's on that port (never a name: DNS
    /// rebinding comes through names).
    public func allow(address: String, port: Int) {
        hosts.allow(address: address, port: port)
    }

    /// Also accepts requests naming `host` as users type it in front of a proxy: a name, or a name and a
    /// port (`photos.example.org`, `localhost:8088`). Exactly that `Host` is added; every other name is
    /// still refused.
    public func allow(publicHost host: String) {
        hosts.allow(publicHost: host)
    }

    /// The answer to `request`, before `handle` dresses it for a signed-in viewer.
    func answer(_ request: ServerRequest) -> HTTPServer.Reply {
        // POST only where it changes something (`changeState`): 405 elsewhere.
        guard ["GET", "HEAD", "POST"].contains(request.method) else {
            return .now(errorPage(405, "Only GET and HEAD are answered here.", headers: [("Allow", "GET, HEAD")]))
        }
        guard let host = request.headers["host"], hosts.contains(host.lowercased()) else {
            // A name other than this server's: a page elsewhere (DNS rebinding) must not reach it.
            return .now(errorPage(421, "This server answers only to its own address."))
        }
        // A page of another site may not make the browser fetch here (each listing can cost a Flickr
        // call on the user's key): browsers say where a request comes from.
        if request.headers["sec-fetch-site"] == "cross-site" {
            return .now(errorPage(403, "This server answers only its own pages."))
        }
        // Anything that changes state (sign-in, sign-out) passes one policy (`StateChangePolicy`).
        if request.method == "POST" {
            return request.path == Self.locationsPath ? changeLocations(request) : changeState(request)
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
        case ("map", true):
            return later(failing: "The map could not be shown") { [self] in try worldMapPage() }
        case ("recent", true):
            return later(failing: "The recent photos could not be read") { [self] in try recentPage() }
        case ("trips", true): return later(failing: "The trips could not be found") { [self] in try tripsPage() }
        case ("trips", false):
            guard TripPhoto.dayNumber(of: rest) != nil, rest.utf8.count == 10 else {
                return .now(errorPage(400, "Not a trip id: a trip is named by its first day, YYYY-MM-DD."))
            }
            return later(failing: "The trip could not be shown") { [self] in try tripPage(rest) }
        case ("visited", true):
            return later(failing: "The places you have been could not be read") { [self] in try visitedPage() }
        case ("visited", false): return visitedPlacePage(rest, limit: request.query["limit"])
        case ("squares", false): return image(rest, size: .square, request: request)
        case ("images", false): return image(rest, size: .medium, request: request)
        case ("assets", false) where rest.hasPrefix("coasts/"): return coastTile(String(rest.dropFirst(7)))
        case ("assets", false): return .now(asset(rest))
        case ("favicon.ico", true): return .now(asset("favicon.svg"))
        case ("api", false) where rest == "find": return find(request.query)
        case ("api", false) where rest == "search": return searchAround(request.query)
        case ("api", false) where rest == "session": return sessionAnswer(request)
        case ("api", false) where "/api/" + rest == Self.locationsPath:
            return .now(apiError(405, "Locations are set only by POST.", headers: [("Allow", "POST")]))
        case ("api", false) where rest.hasPrefix("map/"): return mapTile(String(rest.dropFirst(4)), request: request)
        case ("login", true): return .now(signInPage(request))
        default: return .now(errorPage(404, "Nothing here."))
        }
    }

    /// Whether a served photo id has a shape photomap knows: Flickr's, or an imported photo's.
    static func isPhotoID(_ id: String) -> Bool { FlickrID.isPhotoID(id) || LocalPhotoID.isValid(id) }
    /// The rule, as an error says it.
    static let photoIDRule =
        FlickrID.photoIDRule + ", or an imported photo's ('\(LocalPhotoID.prefix)' and "
        + "\(LocalPhotoID.digits) hex digits)"

    /// Work that may wait (a listing from Flickr, the gazetteer, a database) on one of `workers` threads,
    /// the connection suspended meanwhile, answered 504 past `deadline`, or 503 (with Retry-After) at once
    /// when `maximumWaiting` jobs wait already, the database is away or the disk is full. An error is logged as it is, and
    /// answered with `failure` only: the error may name local paths, which stay on this machine.
    func later(
        failing failure: String, asJSON: Bool = false,
        _ work: @escaping @Sendable () throws -> ServerResponse
    ) -> HTTPServer.Reply {
        .later { [self] answer in
            let failed: @Sendable (Int, String) -> ServerResponse = { status, message in
                // A 503 is worth trying again shortly: it says when.
                let headers = status == 503 ? [(name: "Retry-After", value: String(Self.retryAfterSeconds))] : []
                return asJSON
                    ? self.apiError(status, message, headers: headers)
                    : self.errorPage(status, message, headers: headers)
            }
            let accepted = self.slowWork.submit(
                {
                    do {
                        answer(try work())
                    } catch let error as DatabaseError where error.isUnavailable {
                        // The shared database is away (restarting, locked, out of connections): worth trying
                        // again shortly.
                        self.services.log("\(error)")
                        answer(failed(503, "\(failure): the database is not available; try again shortly"))
                    } catch let error as SQLiteError where error.isDiskFull {
                        // Nothing wrong with the request: the cause is the server's, and may pass.
                        self.services.log("\(error)")
                        answer(failed(503, "\(failure): the server's disk is full"))
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

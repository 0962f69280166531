// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport

/// What the global options select, built from them on first use: the state stores (files in the cache
/// folder, or PostgreSQL), the source of records, Flickr's call pacing, the thumbnail cache and its image
/// origins. The options themselves are `options`.
struct Services {
    /// The global options, resolved with the environment.
    let options: GlobalOptions
    /// Whose view of the imported photos listings, pages and tracks show: the owner's (the command line is
    /// the owner), unless a command says otherwise (`export --audience`, each viewer of `serve`).
    var audiences = Set(Audience.allCases)
    /// The state stores, opened on first use and shared by copies of these services.
    private let openedState = Locked<StateStores?>(nil)

    init(_ options: GlobalOptions) {
        self.options = options
    }

    /// Where the index, Flickr's answers, the recents and the call budget are kept: the database when
    /// one was given (connected and its schema version checked on first use), else the cache folder's files.
    func state() throws -> StateStores {
        try openedState.withLock { opened in
            if let opened { return opened }
            let made =
                try options.database.map {
                    try StateStores.database(
                        PostgresPool(address: $0, size: options.databaseConnections),
                        answerTimeToLive: options.answerTimeToLive)
                } ?? .files(cacheDirectory: options.cacheDirectory, answerTimeToLive: options.answerTimeToLive)
            opened = made
            return made
        }
    }

    /// The GPS tracks maps draw under the imported photos (`--source local`); nil for other sources or none,
    /// and for any view but the owner's (`export --audience`): a track is where the owner went.
    func trackLines() throws -> TrackLines? {
        guard options.source == .local, audiences == Set(Audience.allCases), var store = try state().importedPhotos()
        else { return nil }
        store.audiences = audiences
        let lines = try store.trackLines()
        return lines.isEmpty ? nil : lines
    }

    /// The source the options select; Flickr's listings go into the local index through `recorder`, given
    /// the index's own (a server makes it write in the background).
    func makeSource(
        console: Console, recorder: (IndexRecorder) -> any ListingRecorder = { $0 }
    ) throws -> any PhotoSource {
        switch options.source {
        case .embedded:
            return FixtureSource(catalog: try fixtureCatalog(), imageHost: options.imageHost)
        case .local:
            return LocalSource(
                catalog: { [self] in
                    var store = try state().importedPhotos()
                    store?.showsFenced = options.showsFenced
                    store?.audiences = audiences
                    return store
                }, adapter: adapter)
        case .flickr:
            let state = try state()
            let warn: @Sendable (String) -> Void = { [console] in console.warn($0) }
            let transport = try FlickrRESTTransport(
                endpoint: options.endpoint, apiKey: options.apiKey, cache: state.answers,
                offline: options.offline,
                client: HTTPClient(settings: HTTPSettings(caBundle: options.caBundle)),
                limiter: try rateLimiter(console: console), warn: warn)
            let catalog = FixtureSource.locateCatalog(environment: options.environment)
            // Every listing fetched goes into the local index. Offline, Flickr's licence names come from the
            // embedded catalog's copy of flickr.photos.licenses.getInfo when the cache has none.
            return FlickrSource(
                transport: transport, adapter: adapter,
                recorder: recorder(IndexRecorder(index: state.index, warn: warn)),
                fallbackLicenses: {
                    (catalog.flatMap { try? FixtureSource(catalog: $0).licenses() }) ?? [:]
                })
        }
    }

    /// The pacing of calls to Flickr's API with this key; nil when no call is made (the embedded catalog, --offline).
    func rateLimiter(console: Console) throws -> FlickrRateLimiter? {
        guard options.asksFlickr else { return nil }
        return FlickrRateLimiter(
            budget: try state().callBudget(apiKey: options.apiKey), callsPerHour: options.callsPerHour,
            notice: { [callsPerHour = options.callsPerHour] wait in
                console.warn(
                    "waiting \(Int(wait.rounded(.up))) s: photomap paces its calls to Flickr's API to stay under "
                        + "\(callsPerHour) an hour for this key")
            })
    }

    /// The thumbnail cache: imported photos' images are made from their files when the cache lacks them;
    /// the embedded catalog's come from `Fixtures/images` unless an image host was chosen (also for the
    /// imported photos' source, whose searches may find the catalog's); everything else over HTTP(S), or,
    /// `--offline`, from nowhere (`OfflineImageOrigin`).
    func makeThumbnailCache(console: Console) throws -> ThumbnailCache {
        let catalog =
            options.source == .embedded
            ? try fixtureCatalog()
            : options.source == .local ? FixtureSource.locateCatalog(environment: options.environment) : nil
        let origin: any ImageOrigin =
            catalog.flatMap { catalog in
                options.imageHostGiven
                    ? nil
                    : FixtureImageOrigin(
                        folder: catalog.deletingLastPathComponent()
                            .appendingPathComponent("images"))
            } ?? imageOrigin()
        return ThumbnailCache(
            cacheDirectory: options.cacheDirectory,
            origin: LocalImageOrigin(
                catalog: { [self] in try state().importedPhotos() },
                fallback: origin, web: imageOrigin()),
            configuration: .init(
                limitBytes: options.cacheLimitBytes, imageHost: options.imageHost,
                warn: { console.warn($0) },
                trace: console.trace))
    }

    /// Images over HTTP(S) with the options' connections and CA file; `--offline`, none.
    private func imageOrigin() -> any ImageOrigin {
        guard !options.offline else { return OfflineImageOrigin() }
        var settings = HTTPImageOrigin.defaultSettings
        settings.caBundle = options.caBundle
        return HTTPImageOrigin(settings: settings, connectionsPerHost: options.connectionsPerHost)
    }

    private func fixtureCatalog() throws -> URL {
        guard let catalog = FixtureSource.locateCatalog(environment: options.environment) else {
            throw FlickrError.catalogUnreadable(
                path: "Fixtures/catalog",
                reason:
                    "not found next to the executable or the current folder, nor in /usr/share/photomap; "
                    + "set PHOTOMAP_FIXTURES")
        }
        return catalog
    }

    /// Where the records of pages made from this source come from, for their credits.
    var pageSources: Set<PageCredits.Source> {
        switch options.source {
        case .flickr: [.flickr]
        case .embedded: [.catalog]
        case .local: [.local]
        }
    }

    /// Where the embedded catalog's images are mirrored: the chosen image host, for the catalog only.
    var catalogMirror: ImageHost? { options.source == .embedded && options.imageHostGiven ? options.imageHost : nil }

    /// The adapter for the options' image host.
    var adapter: AnnotationAdapter { AnnotationAdapter(imageHost: options.imageHost) }
}

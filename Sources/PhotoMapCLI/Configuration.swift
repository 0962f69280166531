import Foundation
import PhotoMapKit
import PhotoMapSupport

/// The global options, resolved with the environment: which source, which key, which folders.
struct Configuration {
    /// Where records come from.
    enum SourceKind: String, CaseIterable {
        /// The catalog photomap ships (Fixtures/catalog, /usr/share/photomap/catalog once installed).
        case embedded
        case flickr
        /// The photos `photomap import` read.
        case local
    }

    /// The options every command accepts.
    static let globalOptions: [OptionSpec] = [
        sourceOption,
        .value("api-key", .text("KEY"), "Flickr API key (or FLICKR_API_KEY); never printed or stored"),
        .value(
            "endpoint", .text("URL"),
            "Flickr REST endpoint (or PHOTOMAP_ENDPOINT; default \(FlickrRESTTransport.defaultEndpoint))"),
        .value(
            "image-host", .text("URL"),
            "image host for records without url_* extras "
                + "(or PHOTOMAP_IMAGE_HOST; default \(ImageHost.flickr.base))"),
        .value(
            "cache", .directory("DIR"),
            "cache folder (or PHOTOMAP_CACHE; default ./Cache when it exists, else $XDG_CACHE_HOME/photomap)"),
        cacheLimitOption,
        connectionsOption,
        .value(
            "cacert", .file("FILE"),
            "trust the CA certificates in FILE instead of the system's (or CURL_CA_BUNDLE, SSL_CERT_FILE)"),
        .flag("offline", "answer from the cache only; make no request"),
        databaseOption,
    ]

    /// `--database URL`.
    static let databaseOption = OptionSpec.value(
        "database", .text("URL"),
        "keep the search index, Flickr's answers, recents, the call budget and the "
            + "imported photos' catalog in this PostgreSQL database, shared by several machines (or PHOTOMAP_DATABASE; default: the cache folder)"
    )

    /// `--cache-limit SIZE`.
    static let cacheLimitOption = OptionSpec.value(
        "cache-limit", .size("SIZE"),
        "thumbnail cache size limit, e.g. 200MB (or PHOTOMAP_CACHE_LIMIT)",
        default: "512MB")
    /// `--connections N`.
    static let connectionsOption = OptionSpec.value(
        "connections", .integer("N", 1...256), "connections per image host (over HTTP/2, up to 100 images share one)",
        default: "8")

    /// `--source`: its choices are the source kinds.
    static let sourceOption: OptionSpec = {
        var option = OptionSpec.value(
            "source", .choice(SourceKind.allCases.map(\.rawValue)),
            "where records come from: the embedded catalog, Flickr, or the photos `photomap import` read "
                + "(default: flickr when an API key is given, else embedded)")
        // Its name before 2026-12: scripts written then keep working.
        option.aliases = ["fixtures": SourceKind.embedded.rawValue]
        return option
    }()

    var source: SourceKind
    var apiKey: String
    var endpoint: String
    var imageHost: ImageHost
    /// Whether the image host was chosen (option or environment) rather than defaulted.
    var imageHostGiven: Bool
    var cacheDirectory: URL
    /// What chose that folder: "--cache", "PHOTOMAP_CACHE", "./Cache in the current folder …", "XDG_CACHE_HOME",
    /// "the default …".
    var cacheDirectoryReason: String
    var cacheLimitBytes: Int
    var offline: Bool
    /// Connections per image host for the thumbnail engine.
    var connectionsPerHost: Int
    /// The CA file replacing the system's, if any (`--cacert`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE`, as curl takes them).
    var caBundle: String?
    /// How long Flickr's answers stay fresh (PHOTOMAP_TTL seconds; default one hour).
    var answerTimeToLive: TimeInterval
    /// Flickr API calls allowed an hour with this key (PHOTOMAP_FLICKR_CALLS_PER_HOUR; at most Flickr's 3,600).
    var callsPerHour: Int
    /// The PostgreSQL database holding the shared state, if one was given.
    var database: DatabaseAddress?
    /// Connections kept to it (PHOTOMAP_DATABASE_CONNECTIONS).
    var databaseConnections: Int
    var environment: [String: String]
    /// `--show-fenced`: the imported photos that geofences hide listed with their locations (the owner's
    /// own view from the terminal).
    var showsFenced: Bool
    /// Whose view of the imported photos listings, pages and tracks show: the owner's (the command line is
    /// the owner), unless a command says otherwise (`export --audience`, each viewer of `serve`).
    var audiences = Set(Audience.allCases)
    /// The state stores, opened on first use and shared by copies of this configuration.
    private let openedState = Locked<StateStores?>(nil)

    init(_ parsed: ParsedArguments, environment: [String: String]) throws {
        self.environment = environment
        apiKey = parsed.value("api-key") ?? environment["FLICKR_API_KEY"] ?? ""
        if let named = parsed.value("source") {
            source = SourceKind(rawValue: try Self.sourceOption.checked(named)) ?? .embedded
        } else {
            source = apiKey.isEmpty ? .embedded : .flickr
        }
        endpoint = try Self.httpURL(
            parsed.value("endpoint") ?? environment["PHOTOMAP_ENDPOINT"],
            default: FlickrRESTTransport.defaultEndpoint, option: "endpoint")
        let chosenHost = parsed.value("image-host") ?? environment["PHOTOMAP_IMAGE_HOST"]
        imageHostGiven = chosenHost?.isEmpty == false
        imageHost = ImageHost(base: try Self.httpURL(chosenHost, default: ImageHost.flickr.base, option: "image-host"))
        offline = parsed.has("offline")
        showsFenced = parsed.has(FencesCommand.showFencedOption.name)
        if showsFenced && parsed.has(MapOutput.option.name) {
            throw UsageError("--show-fenced is your own view in the terminal: it does not go with --map")
        }
        if source == .flickr && apiKey.isEmpty && !offline { throw FlickrError.missingAPIKey }
        (cacheDirectory, cacheDirectoryReason) = Self.cacheDirectory(
            parsed.value("cache"), environment: environment)
        cacheLimitBytes =
            ByteSize.parse(
                try Self.setting(
                    Self.cacheLimitOption, parsed, environment,
                    variable: "PHOTOMAP_CACHE_LIMIT")) ?? 0
        connectionsPerHost = Int(try Self.setting(Self.connectionsOption, parsed, environment)) ?? 0
        caBundle = [parsed.value("cacert"), environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        if let caBundle, !FileManager.default.isReadableFile(atPath: caBundle) {
            throw UsageError("the CA file '\(caBundle)' cannot be read (--cacert, CURL_CA_BUNDLE or SSL_CERT_FILE)")
        }
        let ttl = environment["PHOTOMAP_TTL"]
        guard let seconds = ttl.map({ TimeInterval($0) }) ?? 3600, seconds.isFinite, seconds >= 0 else {
            throw UsageError("PHOTOMAP_TTL must be a number of seconds, not '\(ttl ?? "")'")
        }
        answerTimeToLive = seconds
        let rate = environment["PHOTOMAP_FLICKR_CALLS_PER_HOUR"]
        guard let calls = rate.map({ Int($0) }) ?? FlickrRateLimiter.flickrCallsPerHour,
            (1...FlickrRateLimiter.flickrCallsPerHour).contains(calls)
        else {
            throw UsageError(
                "PHOTOMAP_FLICKR_CALLS_PER_HOUR must be a whole number from 1 to "
                    + "\(FlickrRateLimiter.flickrCallsPerHour) (Flickr's limit per key), not '\(rate ?? "")'")
        }
        callsPerHour = calls
        let url = parsed.value(Self.databaseOption.name) ?? environment["PHOTOMAP_DATABASE"]
        database = try url.flatMap { $0.isEmpty ? nil : try DatabaseAddress($0) }
        let connections = environment["PHOTOMAP_DATABASE_CONNECTIONS"]
        guard let pooled = connections.map({ Int($0) }) ?? 4, (1...100).contains(pooled) else {
            throw UsageError(
                "PHOTOMAP_DATABASE_CONNECTIONS must be a whole number from 1 to 100, not '\(connections ?? "")'")
        }
        databaseConnections = pooled
    }

    /// Where the index, Flickr's answers, the recents and the call budget are kept: the database when
    /// one was given (connected and its schema version checked on first use), else the cache folder's files.
    func state() throws -> StateStores {
        try openedState.withLock { opened in
            if let opened { return opened }
            let made =
                try database.map {
                    try StateStores.database(
                        PostgresPool(address: $0, size: databaseConnections), answerTimeToLive: answerTimeToLive)
                } ?? .files(cacheDirectory: cacheDirectory, answerTimeToLive: answerTimeToLive)
            opened = made
            return made
        }
    }

    /// A typed option's value: given (the parser checked it), else `variable` from the environment,
    /// checked as the option is, else the option's declared default.
    private static func setting(
        _ option: OptionSpec, _ parsed: ParsedArguments, _ environment: [String: String],
        variable: String? = nil
    ) throws(UsageError) -> String {
        if let given = parsed.value(option.name) { return given }
        if let variable, let text = environment[variable], !text.isEmpty {
            return try option.checked(text, as: variable)
        }
        guard let fallback = option.defaultValue else {
            throw UsageError("--\(option.name) needs a value: \(option.synopsis)")
        }
        return fallback
    }

    /// The GPS tracks maps draw under the imported photos (`--source local`); nil for other sources or none,
    /// and for any view but the owner's (`export --audience`): a track is where the owner went.
    func trackLines() throws -> TrackLines? {
        guard source == .local, audiences == Set(Audience.allCases), var store = try state().importedPhotos()
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
        switch source {
        case .embedded:
            return FixtureSource(catalog: try fixtureCatalog(), imageHost: imageHost)
        case .local:
            return LocalSource(
                catalog: { [self] in
                    var store = try state().importedPhotos()
                    store?.showsFenced = showsFenced
                    store?.audiences = audiences
                    return store
                }, adapter: adapter)
        case .flickr:
            let state = try state()
            let warn: @Sendable (String) -> Void = { [console] in console.warn($0) }
            let transport = try FlickrRESTTransport(
                endpoint: endpoint, apiKey: apiKey, cache: state.answers,
                offline: offline,
                client: HTTPClient(settings: HTTPSettings(caBundle: caBundle)),
                limiter: try rateLimiter(console: console), warn: warn)
            let catalog = FixtureSource.locateCatalog(environment: environment)
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
        guard source == .flickr, !offline else { return nil }
        return FlickrRateLimiter(
            budget: try state().callBudget(apiKey: apiKey), callsPerHour: callsPerHour,
            notice: { [callsPerHour] wait in
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
            source == .embedded
            ? try fixtureCatalog()
            : source == .local ? FixtureSource.locateCatalog(environment: environment) : nil
        let origin: any ImageOrigin =
            catalog.flatMap { catalog in
                imageHostGiven
                    ? nil
                    : FixtureImageOrigin(
                        folder: catalog.deletingLastPathComponent()
                            .appendingPathComponent("images"))
            } ?? imageOrigin()
        return ThumbnailCache(
            cacheDirectory: cacheDirectory,
            origin: LocalImageOrigin(
                catalog: { [self] in try state().importedPhotos() },
                fallback: origin, web: imageOrigin()),
            configuration: .init(
                limitBytes: cacheLimitBytes, imageHost: imageHost,
                warn: { console.warn($0) },
                trace: console.trace))
    }

    /// Images over HTTP(S) with the options' connections and CA file; `--offline`, none.
    private func imageOrigin() -> any ImageOrigin {
        guard !offline else { return OfflineImageOrigin() }
        var settings = HTTPImageOrigin.defaultSettings
        settings.caBundle = caBundle
        return HTTPImageOrigin(settings: settings, connectionsPerHost: connectionsPerHost)
    }

    private func fixtureCatalog() throws -> URL {
        guard let catalog = FixtureSource.locateCatalog(environment: environment) else {
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
        switch source {
        case .flickr: [.flickr]
        case .embedded: [.catalog]
        case .local: [.local]
        }
    }

    /// Where the embedded catalog's images are mirrored: the chosen image host, for the catalog only.
    var catalogMirror: ImageHost? { source == .embedded && imageHostGiven ? imageHost : nil }

    /// The adapter for this configuration's image host.
    var adapter: AnnotationAdapter { AnnotationAdapter(imageHost: imageHost) }

    private static func httpURL(
        _ value: String?, default fallback: String,
        option: String
    ) throws(UsageError) -> String {
        guard let value, !value.isEmpty else { return fallback }
        guard HTTPClient.scheme(of: value) != nil else {
            throw UsageError("--\(option) must be an http or https URL, not '\(value)'")
        }
        return value
    }

    /// `--cache`, else PHOTOMAP_CACHE, else ./Cache when it exists (as in a checkout), else the XDG cache
    /// folder; with why, for `cache stats` and the messages that name the folder.
    private static func cacheDirectory(_ option: String?, environment: [String: String]) -> (URL, String) {
        if let option, !option.isEmpty { return (URL(fileURLWithPath: option), "--cache") }
        if let variable = environment["PHOTOMAP_CACHE"], !variable.isEmpty {
            return (URL(fileURLWithPath: variable), "PHOTOMAP_CACHE")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "Cache", isDirectory: &isFolder), isFolder.boolValue {
            return (
                URL(fileURLWithPath: "Cache"),
                "./Cache in the current folder (another folder has another cache)"
            )
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return (URL(fileURLWithPath: xdg).appendingPathComponent("photomap"), "XDG_CACHE_HOME")
        }
        let home = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return (
            URL(fileURLWithPath: home).appendingPathComponent("photomap"),
            "the default (no --cache, PHOTOMAP_CACHE, ./Cache or XDG_CACHE_HOME)"
        )
    }

    /// "/srv/photos/cache (chosen by --cache)": the cache folder and why it is this one.
    var cacheFolderInUse: String { "\(cacheDirectory.path) (chosen by \(cacheDirectoryReason))" }
}

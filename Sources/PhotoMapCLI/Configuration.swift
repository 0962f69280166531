import Foundation
import PhotoMapKit

/// The global options, resolved with the environment: which source, which key, which folders.
struct Configuration {
    /// Where records come from.
    enum SourceKind: String, CaseIterable {
        case fixtures, flickr
    }

    /// The options every command accepts.
    static let globalOptions: [OptionSpec] = [
        sourceOption,
        .value("api-key", .text("KEY"), "Flickr API key (or FLICKR_API_KEY); never printed or stored"),
        .value("endpoint", .text("URL"), "Flickr REST endpoint (or PHOTOMAP_ENDPOINT; default \(FlickrRESTTransport.defaultEndpoint))"),
        .value("image-host", .text("URL"), "image host for records without url_* extras (or PHOTOMAP_IMAGE_HOST; default \(ImageHost.flickr.base))"),
        .value("cache", .directory("DIR"), "cache folder (or PHOTOMAP_CACHE; default ./Cache when it exists, else $XDG_CACHE_HOME/photomap)"),
        .value("cache-limit", .text("SIZE"), "thumbnail cache size limit, e.g. 200MB (or PHOTOMAP_CACHE_LIMIT; default 512MB)"),
        .value("connections", .text("N"), "connections per image host (default 8; over HTTP/2, up to 100 images share one)"),
        .value("cacert", .file("FILE"), "trust the CA certificates in FILE instead of the system's (or CURL_CA_BUNDLE, SSL_CERT_FILE)"),
        .flag("offline", "answer from the cache only; make no request"),
    ]

    /// Settings made only in the environment (the options name theirs in their help).
    static let environmentOnly: [(name: String, meaning: String)] = [
        ("PHOTOMAP_TTL", "seconds Flickr's answers stay fresh in the cache (default 3600)"),
        ("PHOTOMAP_FIXTURES", "the embedded catalog's folder, when it is not found above the binary or the current folder"),
    ]

    /// `--source`: its choices are the source kinds.
    static let sourceOption = OptionSpec.value("source", .choice(SourceKind.allCases.map(\.rawValue)),
                                               "where records come from (default: flickr when an API key is given, else fixtures)")

    var source: SourceKind
    var apiKey: String
    var endpoint: String
    var imageHost: ImageHost
    /// Whether the image host was chosen (option or environment) rather than defaulted.
    var imageHostGiven: Bool
    var cacheDirectory: URL
    var cacheLimitBytes: Int
    var offline: Bool
    /// Connections per image host for the thumbnail engine.
    var connectionsPerHost: Int
    /// The CA file replacing the system's, if any (`--cacert`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE`, as curl takes them).
    var caBundle: String?
    /// How long Flickr's answers stay fresh (PHOTOMAP_TTL seconds; default one hour).
    var answerTimeToLive: TimeInterval
    var environment: [String: String]

    init(_ parsed: ParsedArguments, environment: [String: String]) throws {
        self.environment = environment
        apiKey = parsed.value("api-key") ?? environment["FLICKR_API_KEY"] ?? ""
        if let named = parsed.value("source") {
            guard let kind = SourceKind(rawValue: named) else { throw Self.sourceOption.notAChoice(named) }
            source = kind
        } else {
            source = apiKey.isEmpty ? .fixtures : .flickr
        }
        endpoint = try Self.httpURL(parsed.value("endpoint") ?? environment["PHOTOMAP_ENDPOINT"],
                                    default: FlickrRESTTransport.defaultEndpoint, option: "endpoint")
        let chosenHost = parsed.value("image-host") ?? environment["PHOTOMAP_IMAGE_HOST"]
        imageHostGiven = chosenHost?.isEmpty == false
        imageHost = ImageHost(base: try Self.httpURL(chosenHost, default: ImageHost.flickr.base, option: "image-host"))
        offline = parsed.has("offline")
        if source == .flickr && apiKey.isEmpty && !offline { throw FlickrError.missingAPIKey }
        cacheDirectory = Self.cacheDirectory(parsed.value("cache") ?? environment["PHOTOMAP_CACHE"], environment: environment)
        let limit = parsed.value("cache-limit") ?? environment["PHOTOMAP_CACHE_LIMIT"]
        let limitBytes = limit == nil ? 512 << 20 : limit.flatMap(ByteSize.parse)
        guard let limitBytes, limitBytes > 0 else {
            throw UsageError("--cache-limit must be a size such as 200MB or 1GB, not '\(limit ?? "")'")
        }
        cacheLimitBytes = limitBytes
        let connections = parsed.value("connections")
        guard let count = connections.map({ Int($0) }) ?? 8, (1...256).contains(count) else {
            throw UsageError("--connections must be a whole number from 1 to 256, not '\(connections ?? "")'")
        }
        connectionsPerHost = count
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
    }

    /// The source the options select.
    func makeSource(console: Console) throws -> any PhotoSource {
        switch source {
        case .fixtures:
            return FixtureSource(catalog: try fixtureCatalog(), imageHost: imageHost)
        case .flickr:
            let cache = ResponseCache(directory: cacheDirectory.appendingPathComponent("api"), timeToLive: answerTimeToLive)
            let transport = try FlickrRESTTransport(endpoint: endpoint, apiKey: apiKey, cache: cache, offline: offline,
                                                    client: HTTPClient(settings: HTTPSettings(caBundle: caBundle)),
                                                    warn: { [console] in console.warn($0) })
            return FlickrSource(transport: transport)
        }
    }

    /// The thumbnail cache: the embedded catalog's images come from `Fixtures/images` unless an image
    /// host was chosen; everything else over HTTP(S).
    func makeThumbnailCache() throws -> ThumbnailCache {
        let origin: any ImageOrigin = source == .fixtures && !imageHostGiven
            ? FixtureImageOrigin(folder: try fixtureCatalog().deletingLastPathComponent().appendingPathComponent("images"))
            : imageOrigin()
        return ThumbnailCache(cacheDirectory: cacheDirectory, origin: origin,
                              configuration: .init(limitBytes: cacheLimitBytes, imageHost: imageHost))
    }

    /// Images over HTTP(S) with the options' connections and CA file.
    private func imageOrigin() -> HTTPImageOrigin {
        var settings = HTTPImageOrigin.defaultSettings
        settings.caBundle = caBundle
        return HTTPImageOrigin(settings: settings, connectionsPerHost: connectionsPerHost)
    }

    private func fixtureCatalog() throws -> URL {
        guard let catalog = FixtureSource.locateCatalog(environment: environment) else {
            throw FlickrError.catalogUnreadable(path: "Fixtures/catalog",
                                                reason: "not found next to the executable or the current folder; set PHOTOMAP_FIXTURES")
        }
        return catalog
    }

    /// The adapter for this configuration's image host.
    var adapter: AnnotationAdapter { AnnotationAdapter(imageHost: imageHost) }

    private static func httpURL(_ value: String?, default fallback: String, option: String) throws(UsageError) -> String {
        guard let value, !value.isEmpty else { return fallback }
        guard HTTPClient.scheme(of: value) != nil else { throw UsageError("--\(option) must be an http or https URL, not '\(value)'") }
        return value
    }

    /// `--cache`, else ./Cache when it exists (as in a checkout), else the XDG cache folder.
    private static func cacheDirectory(_ explicit: String?, environment: [String: String]) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "Cache", isDirectory: &isFolder), isFolder.boolValue {
            return URL(fileURLWithPath: "Cache")
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return URL(fileURLWithPath: base).appendingPathComponent("photomap")
    }
}

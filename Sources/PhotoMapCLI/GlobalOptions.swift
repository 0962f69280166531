// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapNetworking

/// The options every command accepts, declared once, and their values resolved with the environment:
/// which source, which key, which folders, which database. `Services` builds what they select.
struct GlobalOptions: Sendable {
    /// Where records come from.
    enum SourceKind: String, CaseIterable, Sendable {
        /// The catalog photomap ships (Fixtures/catalog, /usr/share/photomap/catalog once installed).
        case embedded
        case flickr
        /// The photos `photomap import` read.
        case local
    }

    /// `--source`: its choices are the source kinds.
    static let sourceOption = Option<SourceKind>.choice(
        "source",
        "where records come from: the embedded catalog, Flickr, or the photos `photomap import` read "
            + "(default: flickr when an API key is given, else embedded)"
    )
    // Its name before 2026-12: scripts written then keep working.
    .aliasing(["fixtures": SourceKind.embedded.rawValue])
    static let apiKeyOption = Option<String>.text(
        "api-key", "KEY", "Flickr API key (or FLICKR_API_KEY); never printed or stored")
    static let endpointOption = Option<String>.text(
        "endpoint", "URL",
        "Flickr REST endpoint (or PHOTOMAP_ENDPOINT; default \(FlickrRESTTransport.defaultEndpoint))")
    static let imageHostOption = Option<String>.text(
        "image-host", "URL",
        "image host for records without url_* extras (or PHOTOMAP_IMAGE_HOST; default \(ImageHost.flickr.base))")
    static let cacheOption = Option<String>.path(
        "cache", .directory("DIR"),
        "cache folder (or PHOTOMAP_CACHE; default ./Cache when it exists, else $XDG_CACHE_HOME/photomap)")
    /// `--cache-limit SIZE`.
    static let cacheLimitOption = Option<Int>.size(
        "cache-limit", "SIZE", "thumbnail cache size limit, e.g. 200MB (or PHOTOMAP_CACHE_LIMIT)", default: "512MB")
    /// `--connections N`.
    static let connectionsOption = Option<Int>.integer(
        "connections", "N", 1...256, "connections per image host (over HTTP/2, up to 100 images share one)",
        default: "8")
    static let cacertOption = Option<String>.path(
        "cacert", .file("FILE"),
        "trust the CA certificates in FILE instead of the system's (or CURL_CA_BUNDLE, SSL_CERT_FILE)")
    static let offlineFlag = Flag("offline", "answer from the cache only; make no request")
    /// `--database URL`.
    static let databaseOption = Option<String>.text(
        "database", "URL",
        "keep the search index, Flickr's answers, recents, the call budget and the "
            + "imported photos' catalog in this PostgreSQL database, shared by several machines (or PHOTOMAP_DATABASE; default: the cache folder)"
    )

    /// The options every command accepts, in `--help`'s order.
    static let declared: [OptionSpec] = [
        sourceOption.spec, apiKeyOption.spec, endpointOption.spec, imageHostOption.spec, cacheOption.spec,
        cacheLimitOption.spec, connectionsOption.spec, cacertOption.spec, offlineFlag.spec, databaseOption.spec,
    ]

    var source: SourceKind
    var apiKey: String
    /// Flickr's REST endpoint, an http(s) URL.
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

    init(_ parsed: ParsedArguments, environment: [String: String]) throws {
        self.environment = environment
        apiKey = try parsed.value(Self.apiKeyOption) ?? environment["FLICKR_API_KEY"] ?? ""
        source = try parsed.value(Self.sourceOption) ?? (apiKey.isEmpty ? .embedded : .flickr)
        endpoint = try Self.httpURL(
            parsed.value(Self.endpointOption) ?? environment["PHOTOMAP_ENDPOINT"],
            default: FlickrRESTTransport.defaultEndpoint, option: Self.endpointOption.name)
        let chosenHost = try parsed.value(Self.imageHostOption) ?? environment["PHOTOMAP_IMAGE_HOST"]
        imageHostGiven = chosenHost?.isEmpty == false
        imageHost = ImageHost(
            base: try Self.httpURL(chosenHost, default: ImageHost.flickr.base, option: Self.imageHostOption.name))
        offline = parsed.has(Self.offlineFlag)
        showsFenced = parsed.has(FencesCommand.showFencedOption)
        if showsFenced && parsed.has(MapOutput.option) {
            throw UsageError("--show-fenced is your own view in the terminal: it does not go with --map")
        }
        if source == .flickr && apiKey.isEmpty && !offline { throw FlickrError.missingAPIKey }
        (cacheDirectory, cacheDirectoryReason) = Self.cacheDirectory(
            try parsed.value(Self.cacheOption), environment: environment)
        cacheLimitBytes = try Self.setting(
            Self.cacheLimitOption, parsed, environment, variable: "PHOTOMAP_CACHE_LIMIT")
        connectionsPerHost = try Self.setting(Self.connectionsOption, parsed, environment)
        caBundle = [try parsed.value(Self.cacertOption), environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]]
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
        let url = try parsed.value(Self.databaseOption) ?? environment["PHOTOMAP_DATABASE"]
        database = try url.flatMap { $0.isEmpty ? nil : try DatabaseAddress($0) }
        let connections = environment["PHOTOMAP_DATABASE_CONNECTIONS"]
        guard let pooled = connections.map({ Int($0) }) ?? 4, (1...100).contains(pooled) else {
            throw UsageError(
                "PHOTOMAP_DATABASE_CONNECTIONS must be a whole number from 1 to 100, not '\(connections ?? "")'")
        }
        databaseConnections = pooled
    }

    /// Whether Flickr is asked: it is the source, and not `--offline`.
    var asksFlickr: Bool { source == .flickr && !offline }

    /// "/srv/photos/cache (chosen by --cache)": the cache folder and why it is this one.
    var cacheFolderInUse: String { "\(cacheDirectory.path) (chosen by \(cacheDirectoryReason))" }

    /// A typed option's value: given (the parser checked it), else `variable` from the environment,
    /// checked as the option is, else the option's declared default.
    private static func setting<Value>(
        _ option: Option<Value>, _ parsed: ParsedArguments, _ environment: [String: String],
        variable: String? = nil
    ) throws(UsageError) -> Value {
        if parsed.has(option), let given = try parsed.value(option) { return given }
        if let variable, let text = environment[variable], !text.isEmpty {
            return try option.value(of: text, as: variable)
        }
        guard let fallback = try parsed.value(option) else {
            throw UsageError("--\(option.name) needs a value: \(option.spec.synopsis)")
        }
        return fallback
    }

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
}

// SPDX-License-Identifier: Apache-2.0
/// Every environment variable photomap reads, declared once for `--help`, the man page's ENVIRONMENT
/// and the guide's table (a test holds this list to the variables the sources read).
enum Environment {
    /// One variable: its name, the global option it stands for (if any), and what it sets.
    struct Variable: Sendable {
        /// The variable's name.
        let name: String
        /// The global option that names it and wins over it, if one does.
        let option: String?
        /// What it sets, for help and the man page.
        let meaning: String
    }

    static let variables: [Variable] = [
        .init(name: "FLICKR_API_KEY", option: "--api-key", meaning: "Flickr API key; never printed or stored"),
        .init(name: "PHOTOMAP_ENDPOINT", option: "--endpoint", meaning: "Flickr's REST endpoint"),
        .init(
            name: "PHOTOMAP_IMAGE_HOST", option: "--image-host", meaning: "image host for records without url_* extras"),
        .init(name: "PHOTOMAP_CACHE", option: "--cache", meaning: "the cache folder"),
        .init(name: "PHOTOMAP_CACHE_LIMIT", option: "--cache-limit", meaning: "the thumbnail cache's size limit"),
        .init(name: "PHOTOMAP_DATABASE", option: "--database", meaning: "the shared PostgreSQL database's URL"),
        .init(
            name: "CURL_CA_BUNDLE", option: "--cacert",
            meaning: "CA certificates to trust instead of the system's (then SSL_CERT_FILE)"),
        .init(name: "SSL_CERT_FILE", option: "--cacert", meaning: "CA certificates, when CURL_CA_BUNDLE is not set"),
        .init(
            name: "PHOTOMAP_TTL", option: nil,
            meaning: "seconds Flickr's answers stay fresh in the cache (default 3600)"),
        .init(
            name: "PHOTOMAP_FLICKR_CALLS_PER_HOUR", option: nil,
            meaning:
                "Flickr API calls allowed an hour with the key, 1 to 3600 (default 3600, Flickr's limit; lower it "
                + "when other tools share the key)"),
        .init(
            name: "PHOTOMAP_DATABASE_CONNECTIONS", option: nil,
            meaning:
                "connections to --database a process keeps open, 1 to 100 (default 4); a caller waits at most 5 s for one"
        ),
        .init(
            name: "PHOTOMAP_FIXTURES", option: nil,
            meaning:
                "the embedded catalog's folder, when it is not found above the binary or the current folder,"
                + " nor installed in /usr/share/photomap"),
        .init(
            name: "PHOTOMAP_VISIBILITY", option: nil,
            meaning: "who sees the photos `import` adds when --visibility is not given (default private)"),
        .init(
            name: "PHOTOMAP_ASSETS", option: nil,
            meaning: "the pages' scripts and styles, when not beside the binary nor in /usr/share/photomap"),
        .init(
            name: "PHOTOMAP_LEAFLET_DIR", option: nil,
            meaning: "Leaflet's folder (default /usr/share/javascript/leaflet, Debian's libjs-leaflet)"),
        .init(
            name: "PHOTOMAP_CLUSTER_THRESHOLD", option: nil,
            meaning: "located photos above which a page is clustered ahead of time (default 20000)"),
        .init(
            name: "PHOTOMAP_PLACES_FROM_SOURCES", option: nil,
            meaning:
                "1: name places from the gazetteer's files, not the places.bin made ahead of time (a benchmark's"
                + " baseline)"),
        .init(
            name: "PHOTOMAP_SIDECARS", option: nil,
            meaning: "write: import, geotag and locate keep the locations they set in XMP sidecars (default read)"),
        .init(
            name: "XDG_CACHE_HOME", option: nil,
            meaning: "the cache folder is $XDG_CACHE_HOME/photomap (default ~/.cache/photomap) without --cache"),
        .init(
            name: "TZ", option: nil,
            meaning: "the time zone of photos without an offset when --timezone is not given (import --gpx, geotag)"),
        .init(name: "HOME", option: nil, meaning: "for ~/.cache when XDG_CACHE_HOME is not set"),
        .init(name: "COLUMNS", option: nil, meaning: "the terminal's width, when it cannot be asked"),
        .init(name: "NO_COLOR", option: nil, meaning: "set to anything: no colour, even on a terminal"),
        .init(name: "TERM", option: nil, meaning: "dumb: no colour"),
    ]
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapServer

/// `photomap serve`: the catalog as a local web site whose images are fetched when they are asked for.
enum ServeCommand {
    /// The server's own bounds, as the help states them.
    private static let served = HTTPServer.Configuration()

    static let spec = CommandSpec(
        name: "serve",
        summary: "browse places and photos in a web browser, images fetched on demand",
        discussion: """
            Serves the pages `export` writes — the top places, each place's photos, each photo — from the
            configured source, without writing anything first. A callout's square, and a photo's image, is
            fetched through the thumbnail cache when the browser asks for it, and comes from the cache the
            next time. Every map page has a search box: a place, landmark or address centres the map on it;
            words show every matching photo around the map's view (the `find` and `search` behind it).
            Photo pages viewed are remembered (see `photomap recent`).
            It listens on 127.0.0.1 unless --listen says otherwise, answers only requests naming this
            server (or --public-host, the name users type in front of a proxy) as their Host, and only GET
            and HEAD, except POSTs from its own pages (see below). People added with `photomap users` sign in
            at /login; on start, serve prints a link (on standard error only) that signs the owner in once,
            within ten minutes, without a password. Each viewer sees what their role may (see `photomap
            visibility`): anyone not signed in the public view; the owner everything, geofenced locations
            and GPS tracks too. One client address may hold
            \(served.connectionsPerClient) connections at once (--max-client-connections), and each request
            must arrive whole within \(Int(served.requestDeadline)) s. With --database, several instances
            share one search index, kept listings, recents and Flickr call budget (see `photomap db` and
            deploy/nginx.conf). Ctrl-C (or SIGTERM) stops it: answers in progress finish, for a few seconds
            at most.
            The POSTs are sign-in's and, with --source local, the owner's location edits: a photo's page
            shows the signed-in owner "Edit location" (drag, click, type or arrow keys), which sets the
            location as `locate` does; with --sidecars write (or PHOTOMAP_SIDECARS=write) each edit is kept
            in the photo's XMP sidecar too.
            """,
        options: [listenOption.spec, publicHostOption.spec, maxClientConnectionsOption.spec] + SidecarOptions.all,
        examples: [
            .init("serve", "browse at http://127.0.0.1:8080/, images fetched on demand"),
            .init("serve --listen localhost:0", "any free port; the URL is printed"),
            .init("--source local serve", "your own photos on the map"),
        ])

    /// `--listen ADDRESS:PORT`.
    static let listenOption = Option<String>.text(
        "listen", "ADDRESS:PORT",
        "where to listen: an IP address or a host name (its first address) and a port (0: any free one)",
        default: "127.0.0.1:8080")

    /// `--max-client-connections N`.
    static let maxClientConnectionsOption = Option<Int>.integer(
        "max-client-connections", "N", 1...4_096,
        "connections one client address may hold at once; raise it for a proxy in front (nginx), which then "
            + "limits each of its clients",
        default: String(served.connectionsPerClient))

    /// `--public-host NAME[:PORT]`.
    static let publicHostOption = Option<String>.text(
        "public-host", "NAME[:PORT]",
        "also answer requests naming this host, as users type it in front of a proxy (nginx); no other name")

    /// What `serve` was asked, decoded once.
    struct Options: CommandOptions {
        /// Where to listen: the address, the port, and the name given for it (nil for an address).
        var listen: (address: String, port: Int, name: String?)
        /// `--public-host`, checked.
        var publicHost: String?
        var connectionsPerClient: Int
        /// How the owner's location edits reach sidecars (imported photos only).
        var sidecars: SidecarOptions.Values

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            listen = try ServeCommand.listen(parsed.value(listenOption) ?? "")
            publicHost = try parsed.value(publicHostOption).map(checkedHost)
            connectionsPerClient = try parsed.value(maxClientConnectionsOption) ?? served.connectionsPerClient
            // Only the imported photos are edited: PHOTOMAP_SIDECARS is read for them alone.
            sidecars = try SidecarOptions.Values(
                parsed, environment: global.source == .local ? global.environment : [:])
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        // Anyone not signed in sees what everyone may see (the public view); each role its own (`view(of:)`).
        var configuration = configuration
        configuration.audiences = Audience.seen(by: nil)
        let (address, port, name) = options.listen
        let publicHost = options.publicHost
        if !["127.0.0.1", "::1"].contains(address) {
            console.warn(
                "listening on \(address): anyone who can reach this machine on port \(port) can browse this catalog")
        }
        let locations = Locations(configuration: configuration, console: console)
        _ = try locations.index()  // the embedded catalog is in the index before the first search
        let cache = try configuration.makeThumbnailCache(console: console)
        var indexing: BackgroundRecorder?
        let source = try configuration.makeSource(console: console) { index in
            let background = BackgroundRecorder(index)
            indexing = background
            return background
        }
        var services = ServerRoutes.Services(
            source: source, cache: cache,
            assets: try PageAssets.locate(environment: configuration.options.environment),
            adapter: configuration.adapter,
            credits: PageCredits(configuration.pageSources.union([.geonames])),
            catalogMirror: configuration.catalogMirror,
            finder: try locations.finder(),
            search: try locations.search(), recents: try configuration.state().recents,
            log: { console.warn($0) })
        // The tracks are the owner's only (`view(of:)`): the public view draws none.
        let state = try configuration.state(), local = configuration.options.source == .local
        if local {
            // The owner moves photos from the pages as `locate` does (`POST /api/photos/locations`).
            services.locationEditing = LocationEditing(
                catalog: { try state.localCatalogForImport() }, places: ImportCommand.places,
                sidecars: options.sidecars.writer(roots: []),
                index: state.index, adapter: configuration.adapter, history: state.editHistory)
        }
        let signIn = SignIn(accounts: try configuration.state().accounts)
        services.signIn = signIn
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("photomap-serve-\(UUID().uuidString)")
        // The views' own search indexes hold what only some may see: this user's alone, gone when serve stops.
        try FileManager.default.createDirectory(
            at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        services.view = { [services] role in
            try view(of: role, from: services, state: state, local: local, scratch: scratch)
        }
        let routes = ServerRoutes(services: services)
        // A port given is allowed before the first request can come; port 0's is known once bound.
        if port != 0 { routes.allow(address: address, port: port) }
        if let publicHost { routes.allow(publicHost: publicHost) }
        var settings = HTTPServer.Configuration(address: address, port: port)
        settings.connectionsPerClient = options.connectionsPerClient
        // Caught before anyone can learn the port: a stop sent as soon as "serving" is read is not lost.
        let stopSignals = StopSignals()
        let server = try HTTPServer(settings) { routes.handle($0) }
        routes.allow(address: address, port: server.port)
        // The name it was told to listen on is this machine's too.
        if let name { routes.allow(publicHost: "\(name):\(server.port)") }
        let shown = name ?? (address.contains(":") ? "[\(address)]" : address)
        console.note("serving http://\(shown):\(server.port)/ (Ctrl-C to stop)")
        try printOwnerLink(signIn, host: name ?? address, port: server.port, console: console)
        stopSignals.wait()
        console.note("stopping")
        server.stop(grace: 3)
        indexing?.finish()
        cache.flush()
    }

    /// The services a signed-in viewer of `role` is answered from: the imported photos as that role may see
    /// them (the owner: everything, fenced locations and the tracks too), their recents, and a search
    /// index of their own in `scratch` (the shared one holds what everyone may see).
    private static func view(
        of role: Role, from root: ServerRoutes.Services, state: StateStores, local: Bool, scratch: URL
    ) throws -> ServerRoutes.Services {
        var view = root
        let audiences = Audience.seen(by: role), owner = role == .owner
        let adapter = root.adapter
        let catalog: @Sendable () throws -> (any LocalCatalogStore)? = {
            var store = try state.importedPhotos()
            store?.audiences = audiences
            store?.showsFenced = owner
            return store
        }
        if local { view.source = LocalSource(catalog: catalog, adapter: adapter) }
        view.recents = state.recents(for: audiences, showsFenced: owner)
        view.viewCatalog = catalog
        view.viewIndex = SQLiteIndexStore(cacheDirectory: scratch.appendingPathComponent(role.rawValue))
        if owner && local {
            let read: @Sendable () throws -> TrackLines? = { try catalog()?.trackLines() }
            view.readTracks = read
            view.tracks = try read().flatMap { $0.isEmpty ? nil : $0 }
        }
        return view
    }

    /// Prints, on standard error only, the one-time link that signs the owner in (as Jupyter does): valid
    /// ten minutes, once. Nothing else shows it: no page, no log line. It is printed even with --quiet: it
    /// is what `serve` is started for. `host` is the name or address it listens on.
    private static func printOwnerLink(_ signIn: SignIn, host: String, port: Int, console: Console) throws {
        let (token, made) = try signIn.ownerLink()
        if let made {
            console.note("no user was the owner: '\(made)' is now (`photomap users passwd \(made)` gives a password)")
        }
        let shown =
            switch host {
            case "0.0.0.0": "127.0.0.1"
            case "::": "[::1]"
            case _ where host.contains(":"): "[\(host)]"
            default: host
            }
        console.err(
            "photomap: sign in as the owner (once, within 10 minutes): http://\(shown):\(port)/login?token=\(token.text)\n"
        )
    }

    /// `--listen ADDRESS:PORT`: an IPv4 address, an IPv6 one in brackets, or a host name, and a port. A
    /// name is resolved (getaddrinfo, in the system's order of preference) and its first address taken;
    /// `name` is the name, nil for an address.
    static func listen(_ text: String) throws(UsageError) -> (address: String, port: Int, name: String?) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port), colon != text.startIndex
        else {
            throw UsageError(
                "--listen must be an IP address or host name and a port, such as 127.0.0.1:8080, [::1]:0 or "
                    + "localhost:8080, not '\(text)'")
        }
        var address = String(text[..<colon])
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        var probe = in6_addr()
        if inet_pton(AF_INET, address, &probe) == 1 || inet_pton(AF_INET6, address, &probe) == 1 {
            return (address, port, nil)
        }
        return (try firstAddress(of: address, in: text), port, address.lowercased())
    }

    /// The first address `name` resolves to, as text.
    private static func firstAddress(of name: String, in text: String) throws(UsageError) -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &found)
        defer { if let found { freeaddrinfo(found) } }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard status == 0, let first = found,
            getnameinfo(
                first.pointee.ai_addr, first.pointee.ai_addrlen, &host, socklen_t(host.count), nil, 0,
                NI_NUMERICHOST) == 0
        else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw UsageError(
                "--listen '\(text)': no address found for '\(name)' (\(reason)); give an IP address such as "
                    + "127.0.0.1:8080, or a name this machine resolves (/etc/hosts, DNS)")
        }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `--public-host`: a DNS name or IP address (IPv6 in brackets), and a port if users type one.
    static func checkedHost(_ text: String) throws(UsageError) -> String {
        var name = Substring(text)
        // A port follows the last colon, unless that colon is inside an IPv6 address's brackets.
        if let colon = name.lastIndex(of: ":"), !name[colon...].contains("]") {
            guard let port = Int(name[name.index(after: colon)...]), (1...65_535).contains(port) else {
                throw hostUsage(text)
            }
            name = name[..<colon]
        }
        if name.hasPrefix("[") && name.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1 else { throw hostUsage(text) }
        } else {
            let labels = name.split(separator: ".", omittingEmptySubsequences: false)
            guard !name.isEmpty,
                labels.allSatisfy({ label in
                    !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                        && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                })
            else { throw hostUsage(text) }
        }
        return text.lowercased()
    }

    private static func hostUsage(_ text: String) -> UsageError {
        UsageError(
            "--public-host must be a host name or IP address, with a port if users type one "
                + "(photos.example.org, localhost:8088, [::1]:8088), not '\(text)'")
    }
}

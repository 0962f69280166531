// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapServer
import PhotoMapSupport

/// `photomap serve`'s request handling: `ServerRoutes.handle` with requests made from the input
/// (lines: method, path, header fields `name: value` up to an empty line, query arguments `key=value`
/// up to another, then the body: the sign-in form, cookies and all), over the small catalog, with sign-in
/// over the sandbox's accounts. Property: never a crash; an answer always comes, with a status the routes
/// may give, the common security headers, and no path of this machine in it.
enum ServerRoutesTarget {
    /// Statuses the routes answer with; anything else (a 500, a 200 for nonsense) is a finding.
    static let allowedStatuses: Set<Int> = [200, 303, 304, 400, 401, 403, 404, 405, 413, 421, 429, 502, 503]
    /// The Host the routes accept (as `serve --listen 127.0.0.1:8080` would).
    static let host = "127.0.0.1:8080"

    /// The routes of a server on the sandbox: its catalog, cache, gazetteer and index.
    static let routes: ServerRoutes = {
        let sandbox = FuzzSandbox.shared
        do {
            let adapter = AnnotationAdapter()
            let gazetteer = try sandbox.gazetteer()
            var services = ServerRoutes.Services(
                source: FixtureSource(catalog: sandbox.catalog),
                cache: ThumbnailCache(
                    cacheDirectory: sandbox.cache,
                    origin: FixtureImageOrigin(folder: sandbox.images)),
                assets: try PageAssets.locate(environment: [:]), adapter: adapter,
                credits: PageCredits([.catalog, .geonames]),
                catalogMirror: nil, finder: LocationFinder(gazetteer: { gazetteer }, places: nil),
                search: PhotoSearch(index: try sandbox.index(), online: nil),
                recents: RecentPhotos(cacheDirectory: sandbox.cache), log: { _ in })
            services.signIn = SignIn(accounts: SQLiteAccounts(cacheDirectory: sandbox.cache))
            let routes = ServerRoutes(services: services)
            routes.allow(address: "127.0.0.1", port: 8080)
            return routes
        } catch {
            propertyFailed("the sandbox's server cannot be made: \(error)")
        }
    }()

    static let target = FuzzTarget(
        name: "server-routes",
        summary: "photomap serve's routes (ServerRoutes.handle) with fuzzed methods, paths, header fields and queries",
        options: ["-max_len=2048"],
        prepare: { _ = routes }
    ) { bytes in
        var lines = FuzzLines(bytes)
        let method = lines.next() ?? "GET"
        let path = lines.next() ?? "/"
        var headers: [String: String] = [:]
        while let line = lines.next(), !line.isEmpty {
            let (name, value) = split(line, at: ":")
            headers[name.lowercased()] = value.trimmingCharacters(in: .whitespaces)
        }
        var query: [String: String] = [:]
        while let line = lines.next(), !line.isEmpty {
            let (key, value) = split(line, at: "=")
            query[key] = value
        }
        let body = Data(lines.rest.joined(separator: "\n").utf8)
        check(
            answer(
                to: ServerRequest(
                    method: method, path: path, headers: headers, query: query, body: body, peerAddress: "127.0.0.1")),
            for: "\(method) \(path)")
        return true
    }

    /// The routes' answer to `request`, waiting for one that comes later.
    static func answer(to request: ServerRequest) -> ServerResponse {
        switch routes.handle(request) {
        case let .now(response):
            return response
        case let .later(work):
            // A route that never answers hangs here, and libFuzzer's -timeout reports it.
            let answered = DispatchSemaphore(value: 0)
            let first = FirstAnswer()
            work { response in
                first.value.withLock { $0 = $0 ?? response }
                answered.signal()
            }
            answered.wait()
            return first.value.withLock { $0 } ?? .text(0, "no answer")
        }
    }

    /// The first answer a later reply gives (a route must give one; more are ignored, as the server does).
    final class FirstAnswer: Sendable {
        let value = Locked<ServerResponse?>(nil)
    }

    /// Checks an answer against the property.
    static func check(_ response: ServerResponse, for request: String) {
        require(allowedStatuses.contains(response.status), "status \(response.status) for \(request.debugDescription)")
        require(response.header("X-Content-Type-Options") == "nosniff", "no nosniff for \(request.debugDescription)")
        if response.header("Content-Type")?.hasPrefix("text/html") == true {
            require(
                response.header("Content-Security-Policy") != nil,
                "an HTML answer without its CSP for \(request.debugDescription)")
        }
        if case let .bytes(body) = response.body {
            let text = String(decoding: body, as: UTF8.self)
            require(
                !text.contains(FuzzSandbox.shared.root.path),
                "a local path in the answer to \(request.debugDescription): \(text)")
        }
    }

    private static func split(_ line: String, at separator: Character) -> (String, String) {
        guard let index = line.firstIndex(of: separator) else { return (line, "") }
        return (String(line[..<index]), String(line[line.index(after: index)...]))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `serve` as each viewer sees it, over HTTP: the audiences matrix (`AudiencesEndToEndTests`) with one
/// public photo behind a geofence, users of every role added with `users add --password-stdin` and signed
/// in through the form, and for anyone and each role every route's answer searched in every byte for the
/// ids, titles and coordinates that viewer may not see, and for what it may; on SQLite and PostgreSQL.
@Suite("Audiences end to end, each viewer", .serialized)
struct AudiencesViewersEndToEndTests {
    typealias Sample = AudiencesEndToEndTests.Sample
    let matrix: AudiencesEndToEndTests
    static let password = "correct horse battery"
    /// The sample a geofence holds: public, its location too, so only the fence hides it.
    static let fenced = AudiencesEndToEndTests.samples[0]

    init() throws {
        matrix = try AudiencesEndToEndTests()
    }

    /// Adds `name` as `role` to the state `state` names, and signs them in to `server` as a browser does;
    /// the session cookie.
    func signIn(_ server: ServeProcess, _ name: String, role: Role, state: [String]) throws -> String {
        let added = try PhotomapBinary.addUser(
            name, role: role.rawValue, password: Self.password,
            arguments: state)
        #expect(added.status == 0, "\(added.stderr)")
        return try #require(try server.signIn(name, password: Self.password), "\(name) signs in")
    }

    /// The slippy-map tile at `zoom` holding a sample, as `/api/map` names it.
    static func tile(of sample: Sample, zoom: Int) -> String {
        let scale = Double(1 << zoom), latitude = sample.latitude * .pi / 180
        let x = Int((sample.longitude + 180) / 360 * scale)
        let y = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * scale)
        return "/api/map/\(zoom)/\(x)/\(y).json"
    }

    @Test(
        "serve answers each viewer from what that viewer may see: anyone, friend, family, friend+family, owner",
        arguments: StateEngine.allCases)
    func everyViewerEveryRoute(engine: StateEngine) throws {
        var matrix = self.matrix
        let place = try engine.place(in: matrix.cache.url)
        matrix.database = place.database.map { ["--database", $0.url] } ?? []
        let ids = try matrix.importMatrix()
        let fence = try matrix.photomap([
            "fences", "add", "home", "--near", "\(Self.fenced.latitude),\(Self.fenced.longitude)", "--radius", "300",
        ])
        #expect(fence.status == 0, "\(fence.stderr)")
        let viewers: [(name: String, role: Role?)] = [
            ("", nil), ("fred", .friend), ("fiona", .family), ("faye", .friendAndFamily), ("olga", .owner),
        ]
        let server = try ServeProcess(
            ["--cache", matrix.cache.url.path] + matrix.database + ["--source", "local"], environment: [:])
        defer { server.stop() }
        let placeIDs = try matrix.jsonArray(try matrix.photomap(["--source", "local", "places", "--json"]).stdout)
            .compactMap { $0["id"] as? String }
        let visitedPages = try matrix.visitedPages()
        let unknown = "local-" + String(repeating: "0", count: 24)
        var checked = 0
        for viewer in viewers {
            let cookie = try viewer.role.map { try signIn(server, viewer.name, role: $0, state: place.arguments) }
            let headers = cookie.map { ["Cookie": $0] } ?? [:]
            let get = { (path: String) in try server.request(path, headers: headers) }
            let session = String(decoding: try get("/api/session").body, as: UTF8.self)
            #expect(session.contains("\"role\":\(viewer.role.map { "\"\($0.rawValue)\"" } ?? "null")"), "\(session)")
            let seen = Audience.seen(by: viewer.role)
            let visible = { (sample: Sample) in seen.contains(sample.visibility) }
            let located = { (sample: Sample) in
                visible(sample) && seen.contains(sample.location)
                    && (viewer.role == .owner || sample.title != Self.fenced.title)
            }
            var routes = AudiencesEndToEndTests.samples.compactMap { ids[$0.title] }.flatMap {
                ["/squares/\($0)", "/images/\($0)"]
            }
            routes += ["/", "/map", "/places/unlocated", "/api/search?q=Kq", "/api/find?q=Kq", "/api/map/0/0/0.json"]
            routes += placeIDs.map { "/places/\($0)" } + ["/visited"] + visitedPages
            for sample in AudiencesEndToEndTests.samples {
                let id = try #require(ids[sample.title])
                routes += [
                    "/photos/\(id)", "/api/search?q=\(sample.title)", "/api/find?q=\(sample.title)",
                    "/api/search?q=\(sample.title)&lat=\(sample.latitude)&lon=\(sample.longitude)&radius=5",
                    Self.tile(of: sample, zoom: 14), Self.tile(of: sample, zoom: 6),
                ]
            }
            routes.append("/recent")
            var answers: [String: String] = [:]
            for path in routes {
                let answer = try get(path)
                let body = String(decoding: answer.body, as: UTF8.self)
                answers[path] = body
                #expect([200, 404].contains(answer.status), "\(viewer.name) \(path): \(answer.status)")
                if cookie != nil {
                    #expect(answer.headers["cache-control"] == "private, no-store", "\(viewer.name) \(path)")
                }
                for sample in AudiencesEndToEndTests.samples {
                    let id = try #require(ids[sample.title])
                    if !visible(sample) {
                        #expect(
                            !body.contains(id) && !body.contains(sample.title),
                            "\(viewer.name) \(path): \(sample.title)")
                    }
                    if !located(sample) {
                        #expect(
                            !AudiencesEndToEndTests.coordinates(in: body).contains(sample.title),
                            "\(viewer.name) \(path): where \(sample.title) is")
                    }
                }
                checked += 1
            }
            // What the viewer may see is there: not a vacuous pass.
            let unknownPage = String(decoding: try get("/photos/\(unknown)").body, as: UTF8.self)
            for sample in AudiencesEndToEndTests.samples {
                let id = try #require(ids[sample.title])
                let page = answers["/photos/\(id)"] ?? ""
                let near = "/api/search?q=\(sample.title)&lat=\(sample.latitude)&lon=\(sample.longitude)&radius=5"
                if visible(sample) {
                    #expect(page.contains(sample.title), "\(viewer.name): \(sample.title)")
                    #expect(
                        answers["/recent"]?.contains(sample.title) == true, "\(viewer.name) recent: \(sample.title)")
                    // Search answers GeoJSON: photos with a location the viewer may see.
                    #expect(
                        answers["/api/search?q=\(sample.title)"]?.contains(id) == located(sample),
                        "\(viewer.name): \(sample.title) found")
                    #expect(
                        AudiencesEndToEndTests.coordinates(in: page).contains(sample.title) == located(sample),
                        "\(viewer.name): where \(sample.title) is")
                    #expect(answers[near]?.contains(id) == located(sample), "\(viewer.name) \(near)")
                    // The pages of the places the viewer has been hold the photos they see there.
                    #expect(
                        visitedPages.contains { answers[$0]?.contains(id) == true } == located(sample),
                        "\(viewer.name): \(sample.title) in the places visited")
                    #expect(
                        answers[Self.tile(of: sample, zoom: 14)]?.contains(id) == located(sample),
                        "\(viewer.name): \(sample.title) on the map")
                    for route in ["/images/", "/squares/"] {
                        let image = try get(route + id)
                        #expect(image.status == 200, "\(viewer.name) \(route)\(sample.title)")
                        #expect(try matrix.locationTags(image.body).isEmpty, "\(viewer.name) \(route)\(sample.title)")
                    }
                } else {
                    // Exactly as an unknown id: the same page but for the id, the same image answer.
                    #expect(page.replacingOccurrences(of: id, with: unknown) == unknownPage, "\(viewer.name)")
                    for route in ["/squares/", "/images/"] {
                        let hidden = try get(route + id), none = try get(route + unknown)
                        #expect(hidden.status == 404 && hidden.status == none.status && hidden.body == none.body)
                    }
                }
            }
        }
        #expect(checked > 5 * 100, "\(checked) answers")
    }
}

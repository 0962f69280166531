// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

/// `--database` as a user meets it: migrations, status, a server that goes away, bad addresses.
@Suite("photomap with a PostgreSQL database, end to end")
struct DatabaseEndToEndTests {
    let work: TemporaryFolder

    init() throws {
        work = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: work.url.appendingPathComponent("cache"))
    }

    var environment: [String: String] { ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path] }

    /// The database's URL with a password in it (the test cluster trusts every login, so any works).
    func withPassword(_ url: String) -> String {
        url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://postgres:Sw0rdf1sh-SECRET@")
    }

    @Test(
        "ten processes migrating at once: one migration, no error; status shows the schema and rows, never the password"
    )
    func migrateAtOnce() throws {
        let url = withPassword(try TestDatabase(migrated: false).url)
        let outputs = Locked<[PhotomapBinary.Result]>([])
        DispatchQueue.concurrentPerform(iterations: 10) { _ in
            if let result = try? PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment) {
                outputs.withLock { $0.append(result) }
            }
        }
        let results = outputs.withLock { $0 }
        #expect(results.count == 10 && results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(results.filter { $0.stderr.contains("applied migration") }.count == 1)
        #expect(results.filter { $0.stderr.contains("already current") }.count == 9)
        #expect(
            try TestDatabase.psql(url, "SELECT count(*) FROM photomap_schema") == "\(DatabaseSchema.currentVersion)")

        let search = try PhotomapBinary.run(
            ["--database", url, "search", "bridge", "--near", "37.77,-122.42", "--json"],
            environment: environment)
        #expect(search.status == 0, "\(search.stderr)")
        let status = try PhotomapBinary.run(
            ["db", "status"], environment: environment.merging(["PHOTOMAP_DATABASE": url]) { $1 })
        #expect(status.status == 0)
        #expect(
            status.stdout.contains("schema version: \(DatabaseSchema.currentVersion)")
                && status.stdout.contains("PostGIS 3"))
        #expect(
            status.stdout.range(of: #"index_records: [1-9]\d* rows"#, options: .regularExpression) != nil,
            "\(status.stdout)")
        for result in results + [search, status] {
            #expect(!(result.stdout + result.stderr).contains("SECRET"))
        }
        let version = try PhotomapBinary.run(["--version"], environment: ["PHOTOMAP_DATABASE": url])
        #expect(version.status == 0 && !version.stdout.contains("SECRET"))
    }

    @Test("an unreachable database: an error naming the host, never the password, exit 1; serve does not start")
    func unreachable() throws {
        let url = "postgresql://pm:Sw0rdf1sh-SECRET@/photomap?host=/nonexistent-socket-dir"
        for arguments in [["search", "bridge"], ["db", "status"], ["serve", "--listen", "127.0.0.1:0"], ["recent"]] {
            let result = try PhotomapBinary.run(["--database", url] + arguments, environment: environment)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix(
                    "photomap: error: cannot connect to the database pm@/nonexistent-socket-dir/photomap"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"))
        }
        let malformed = try PhotomapBinary.run(
            ["--database", "postgresql://x:SECRET@[bad", "search", "x"], environment: environment)
        #expect(
            malformed.status == 2 && malformed.stderr.hasPrefix("photomap: error: the database address is not valid"))
        #expect(!malformed.stderr.contains("SECRET"))
        let noDatabase = try PhotomapBinary.run(["db", "status"], environment: environment)
        #expect(noDatabase.status == 2 && noDatabase.stderr.contains("needs a database"))
    }

    @Test("word counts an older photomap emptied: a command's search answers, `db migrate` counts them again")
    func migrateHealsCounts() throws {
        let url = try TestDatabase().url
        #expect(try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment).status == 0)
        #expect(try PhotomapBinary.run(["--database", url, "search", "bridge"], environment: environment).status == 0)
        let kept = try TestDatabase.psql(url, "SELECT count(*) FROM index_word_rows WHERE records > 0")
        // As an older photomap leaves them after its load: the table emptied, the mark row with it.
        try TestDatabase.psql(url, "DELETE FROM index_word_rows")
        let search = try PhotomapBinary.run(["--database", url, "search", "bridge"], environment: environment)
        #expect(search.status == 0 && search.stdout.lowercased().contains("bridge"), "\(search.stderr)")
        // The search started a count apart, which its process may or may not have lived to finish.
        try TestDatabase.psql(url, "DELETE FROM index_word_rows")
        let migrate = try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment)
        #expect(migrate.status == 0 && migrate.stderr.contains("word counts were stale"), "\(migrate.stderr)")
        #expect(try TestDatabase.psql(url, "SELECT count(*) FROM index_word_rows WHERE records > 0") == kept)
        #expect(try TestDatabase.psql(url, "SELECT count(*) FROM index_word_rows WHERE word = ''") == "1")
        let again = try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment)
        #expect(again.status == 0 && !again.stderr.contains("stale"), "\(again.stderr)")
    }

    @Test("a schema newer than this photomap is refused, not guessed at")
    func newerSchema() throws {
        let url = try TestDatabase().url
        #expect(try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment).status == 0)
        try TestDatabase.psql(url, "INSERT INTO photomap_schema VALUES (99)")
        for arguments in [["search", "bridge"], ["db", "migrate"]] {
            let result = try PhotomapBinary.run(["--database", url] + arguments, environment: environment)
            #expect(
                result.status == 1
                    && result.stderr.contains(
                        "schema version 99, newer than this photomap's \(DatabaseSchema.currentVersion)"),
                "\(result.stderr)")
        }
        let status = try PhotomapBinary.run(["--database", url, "db", "status"], environment: environment)
        #expect(status.status == 0 && status.stdout.contains("schema version: 99"))
    }

    @Test(
        "the database stopped and started while serve runs: 503 while it is away, cached images still served, then answers again with nothing lost"
    )
    func databaseGoesAway() throws {
        let cluster = try OwnCluster()
        defer { cluster.stop() }
        let url = cluster.url
        #expect(try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment).status == 0)
        let server = try ServeProcess(
            ["--database", url, "--image-host", LoopbackServer.catalogImages.url("/ok")],
            environment: environment)
        // Vienna: no other test asks the shared image server for its squares (ServeEndToEndTests counts theirs).
        let place = try server.request("/places/JU5AsQDwSS_JO12FTq?limit=5")
        #expect(place.status == 200)
        let id = try #require(
            String(decoding: place.body, as: UTF8.self).components(separatedBy: "href=\"/photos/")
                .dropFirst().first?.split(separator: "\"").first.map(String.init))
        #expect(try server.request("/squares/\(id)").status == 200)
        #expect(try server.request("/photos/\(id)").status == 200)
        // Another server on the database shows the photo, and its square from the same mirror, unlisted.
        let other = try ServeProcess(
            [
                "--database", url, "--image-host", LoopbackServer.catalogImages.url("/ok"),
                "--cache", work.url.appendingPathComponent("other").path,
            ], environment: [:])
        #expect(
            try other.request("/squares/\(id)").status == 200 && other.request("/photos/\(id)").status == 200,
            "\(other.stderr)")
        #expect(try server.request("/api/search?q=bridge&lat=37.77&lon=-122.42&radius=5").status == 200)

        try cluster.halt()
        let recent = try server.request("/recent")
        #expect(
            recent.status == 503 && String(decoding: recent.body, as: UTF8.self).contains("database is not available"))
        #expect(try server.request("/api/search?q=bridge&lat=37.77&lon=-122.42&radius=5").status == 503)
        #expect(try server.request("/squares/\(id)").status == 200, "images in the cache need no database")

        try cluster.resume()
        let back = try server.request("/recent")
        #expect(
            back.status == 200 && String(decoding: back.body, as: UTF8.self).contains("/photos/\(id)"),
            "the view remembered before the database went away is still there")
        #expect(try server.request("/api/search?q=bridge&lat=37.77&lon=-122.42&radius=5").status == 200)
        #expect(server.stderr.contains("the database") && !server.stderr.contains("SECRET"))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

/// What a site meets on its first busy day, with `--database`: a table locked by another connection,
/// PostgreSQL restarted while serve is idle, a database no one migrated, a role that may create nothing.
@Suite("photomap with a PostgreSQL database that is locked, restarted, unmigrated or least-privileged")
struct DatabaseFaultsEndToEndTests {
    let work: TemporaryFolder
    let key = "KEY-\(UUID().uuidString)"
    let newYork = "LATOAYBHhITBWjUq5GkE"

    init() throws {
        work = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: work.url.appendingPathComponent("cache"))
    }

    var environment: [String: String] { ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path] }

    /// `places` from the Flickr-protocol server, on `database`.
    func places(_ database: String) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(
            ["--database", database, "--api-key", key, "--endpoint", LoopbackServer.flickr.endpoint(), "places"],
            environment: environment)
    }

    @Test("a table locked by another connection: serve answers 503 with Retry-After within seconds, then 200")
    func lockedTable() throws {
        let database = try TestDatabase()
        let server = try ServeProcess(["--database", database.url], environment: environment)
        #expect(try server.request("/recent").status == 200)
        // Another session holds the table until it is stopped.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = [
            "-qAt", database.url, "-c",
            "BEGIN; LOCK TABLE recent_photos IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);",
        ]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        let locked = "SELECT count(*) FROM pg_locks WHERE relation = 'recent_photos'::regclass AND granted"
        for _ in 0..<100 where try TestDatabase.psql(database.url, locked) == "0" { usleep(50_000) }
        #expect(try TestDatabase.psql(database.url, locked) != "0", "the lock is held")

        let started = Date()
        let answers = Locked<[RawHTTP.Answer]>([])
        // Threads of their own: all eight at once, however few the cores.
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                if let answer = try? server.request("/recent", timeout: 20) { answers.withLock { $0.append(answer) } }
                group.leave()
            }.start()
        }
        group.wait()
        let elapsed = Date().timeIntervalSince(started)
        let all = answers.withLock { $0 }
        #expect(all.count == 8 && all.allSatisfy { $0.status == 503 }, "\(all.map(\.status))")
        #expect(all.allSatisfy { $0.headers["retry-after"] == "2" })
        #expect(
            all.allSatisfy { String(decoding: $0.body, as: UTF8.self).contains("the database is not available") })
        #expect(elapsed < 7, "answered in \(elapsed) s")
        print("8 requests on a locked table answered 503 in \(elapsed) s")

        // Its session ended (psql's own end would leave the server's statement sleeping on, lock held).
        try TestDatabase.psql(
            database.url,
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE relation = 'recent_photos'::regclass AND granted")
        holder.waitUntilExit(within: 60, "psql holding the lock")
        #expect(try server.request("/recent").status == 200)
        #expect(server.stderr.contains("lock timeout"), "\(server.stderr)")
    }

    @Test("PostgreSQL restarted while serve is idle: every request after it is back answers 200")
    func restartedWhileIdle() throws {
        let cluster = try OwnCluster()
        defer { cluster.stop() }
        let url = cluster.url
        #expect(try PhotomapBinary.run(["--database", url, "db", "migrate"], environment: environment).status == 0)
        let server = try ServeProcess(["--database", url], environment: environment)
        let paths = ["/recent", "/api/search?q=bridge&lat=37.77&lon=-122.42&radius=5"]
        // Requests at once, so that the pool holds several connections, idle when the server goes.
        func burst() -> [Int] {
            let statuses = Locked<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 12) { number in
                let status = (try? server.request(paths[number % 2]).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            return statuses.withLock { $0 }
        }
        #expect(burst().allSatisfy { $0 == 200 })

        try cluster.halt()
        try cluster.resume()
        var statuses = burst()
        for number in 0..<8 { statuses.append(try server.request(paths[number % 2]).status) }
        #expect(statuses.count == 20 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
    }

    @Test("an unmigrated database: exit 1 saying to run `photomap db migrate`, serve does not start, nothing created")
    func unmigrated() throws {
        let database = try TestDatabase(migrated: false)
        let tables = "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace"
        let before = try TestDatabase.psql(database.url, tables)
        for arguments in [["search", "bridge"], ["recent"], ["serve", "--listen", "127.0.0.1:0"]] {
            let result = try PhotomapBinary.run(["--database", database.url] + arguments, environment: environment)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("photomap: error: the database ")
                    && result.stderr.contains(
                        "has photomap's schema version 0, older than this photomap's \(DatabaseSchema.currentVersion)")
                    && result.stderr.contains("run `photomap db migrate`"),
                "\(result.stderr)")
        }
        let listed = try places(database.url)
        #expect(listed.status == 1 && listed.stderr.contains("run `photomap db migrate`"), "\(listed.stderr)")
        #expect(try TestDatabase.psql(database.url, tables) == before, "nothing created")
        #expect(try TestDatabase.psql(database.url, "SELECT to_regclass('photomap_schema') IS NULL") == "t")
    }

    @Test("a role made by deploy/roles.sql, which may create nothing, runs places and serve after the owner migrates")
    func leastPrivilege() throws {
        let database = try TestDatabase()
        let url = try database.leastPrivilegedURL()
        #expect(throws: (any Error).self, "the role may not create a table") {
            try TestDatabase.psql(url, "CREATE TABLE intruder (x integer)")
        }

        let listed = try places(url)
        #expect(listed.status == 0 && listed.stdout.contains(newYork), "\(listed.stderr)")
        let server = try ServeProcess(
            [
                "--database", url, "--source", "flickr", "--api-key", key, "--endpoint",
                LoopbackServer.flickr.endpoint(),
            ],
            environment: environment)
        let place = try server.request("/places/\(newYork)?limit=20")
        #expect(place.status == 200)
        let id = try #require(
            String(decoding: place.body, as: UTF8.self).components(separatedBy: "href=\"/photos/")
                .dropFirst().first?.split(separator: "\"").first.map(String.init))
        #expect(try server.request("/photos/\(id)").status == 200)
        #expect(String(decoding: try server.request("/recent").body, as: UTF8.self).contains("/photos/\(id)"))
        // The listing went into the shared index, by the role, in the background.
        var indexed = "0"
        for _ in 0..<50 where indexed == "0" {
            indexed = try TestDatabase.psql(database.url, "SELECT count(*) FROM index_records WHERE kind = 'photo'")
            if indexed == "0" { usleep(100_000) }
        }
        #expect(indexed != "0", "\(server.stderr)")
        #expect(!server.stderr.contains("SECRET") && !server.stderr.contains("permission denied"), "\(server.stderr)")
    }
}

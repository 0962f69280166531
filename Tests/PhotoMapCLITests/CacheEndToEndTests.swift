// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

/// The JSON object a command printed.
private func jsonObject(_ result: PhotomapBinary.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
}

@Suite("photomap's thumbnail cache, end to end")
struct CacheEndToEndTests {
    let images = LoopbackServer.images
    let work: TemporaryFolder

    init() throws {
        work = try TemporaryFolder()
    }

    /// Runs photomap on a catalog of `squares` (paths on the image server), with this test's cache.
    func photomap(_ arguments: [String], catalog: TestCatalog? = nil) throws -> PhotomapBinary.Result {
        var environment = ["PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path]
        if let catalog { environment["PHOTOMAP_FIXTURES"] = catalog.folder.path }
        return try PhotomapBinary.run(["--image-host", images.url("")] + arguments, environment: environment)
    }

    /// Entries in this test's cache folder, counted on disk.
    func storedEntries() -> Int {
        let enumerator = FileManager.default.enumerator(atPath: work.url.appendingPathComponent("cache/thumbs").path)
        var count = 0
        while let path = enumerator?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.count == 64 && !name.hasPrefix(".") { count += 1 }
        }
        return count
    }

    func catalog(_ paths: [String]) throws -> TestCatalog {
        try TestCatalog(in: work.url, squareURLs: paths.map(images.url))
    }

    @Test("photos --prefetch fetches the listing's squares; cache stats and verify report them")
    func prefetchThenStats() throws {
        let catalog = try catalog((100..<140).map { "/ok/square-\($0).png" })
        let result = try photomap(["photos", "--place", catalog.placeID, "--prefetch", "--json"], catalog: catalog)
        #expect(result.status == 0)
        #expect(result.stderr == "photomap: 40 of 40 squares ready in \(work.url.path)/cache/thumbs\n")
        #expect(!result.stderr.contains("\r"), "no progress bar outside a terminal")
        let listing = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(listing.count == 40)

        let stats = try jsonObject(try photomap(["cache", "stats", "--json"]))
        #expect(stats["entries"] as? Int == 40)
        #expect((stats["bytes"] as? Int ?? 0) > 40 * 100)
        #expect(stats["limitBytes"] as? Int == 512 << 20)
        #expect(stats["misses"] as? Int == 40)
        let again = try photomap(["photos", "--place", catalog.placeID, "--prefetch"], catalog: catalog)
        #expect(again.status == 0)
        #expect(try jsonObject(try photomap(["cache", "stats", "--json"]))["hits"] as? Int == 40)
        let verify = try jsonObject(try photomap(["cache", "verify", "--json"]))
        #expect(verify["entries"] as? Int == 40 && verify["corrupt"] as? Int == 0)
        #expect(try images.count(of: "/ok/square-100.png") == 1)
    }

    @Test("photos --prefetch --map asks the cache for each square once, while the listing arrives")
    func prefetchWithMap() throws {
        let catalog = try catalog((145..<160).map { "/ok/square-\($0).png" })
        let result = try photomap(
            [
                "photos", "--place", catalog.placeID, "--prefetch", "--json",
                "--map", work.url.appendingPathComponent("page.html").path,
            ], catalog: catalog)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "squares ready").count == 2, "\(result.stderr)")
        let stats = try jsonObject(try photomap(["cache", "stats", "--json"]))
        // Each square (and medium image) was asked for once, a miss: a second request would have been a hit.
        #expect(stats["hits"] as? Int == 0, "\(stats)")
        #expect(result.stderr.contains("15 of 15 squares ready"), "\(result.stderr)")
    }

    @Test("failed squares are warnings; the rest of the run goes on and nothing bad is kept")
    func failuresAreReported() throws {
        let catalog = try catalog([
            "/ok/square-140.png", "/html200/square-141.png", "/status404/square-142.png",
            "/truncate/square-143.png", "/ok/square-144.png",
        ])
        let result = try photomap(["photos", "--place", catalog.placeID, "--prefetch"], catalog: catalog)
        #expect(result.status == 0)
        #expect(result.stderr.contains("photomap: warning: no square for photo 10000000001: "))
        #expect(result.stderr.contains("it looks like HTML"))
        #expect(result.stderr.contains("HTTP 404"))
        #expect(result.stderr.hasSuffix("photomap: 2 of 5 squares ready in \(work.url.path)/cache/thumbs\n"))
        #expect(try jsonObject(try photomap(["cache", "stats", "--json"]))["entries"] as? Int == 2)
    }

    @Test("a prefetch that gets nothing is a failure (exit 1), after the listing is printed")
    func everythingFails() throws {
        let catalog = try catalog(["/status404/square-150.png", "/html200/square-151.png"])
        let result = try photomap(["photos", "--place", catalog.placeID, "--prefetch"], catalog: catalog)
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("2 of 2 photos\n"))
        #expect(
            result.stderr.hasSuffix("photomap: error: none of the 2 images could be fetched (see the warnings above)\n")
        )
    }

    @Test("kill -9 in the middle of a prefetch leaves nothing corrupt, and the next run completes it")
    func killDuringPrefetch() throws {
        let catalog = try catalog((0..<120).map { "/slow/photo-\($0).jpg" })
        let process = Process()
        process.executableURL = PhotomapBinary.url
        process.arguments = [
            "--image-host", images.url(""), "photos", "--place", catalog.placeID, "--limit", "120",
            "--prefetch",
        ]
        process.environment = PhotomapBinary.environment([
            "PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path,
            "PHOTOMAP_FIXTURES": catalog.folder.path,
        ])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once some squares are stored and others are still downloading.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, storedEntries() < 10 { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let verify = try jsonObject(try photomap(["cache", "verify", "--json"]))
        #expect(verify["corrupt"] as? Int == 0)
        let stored = verify["entries"] as? Int ?? -1
        #expect(stored > 0 && stored < 120, "killed part-way: \(stored) stored")
        let rerun = try photomap(
            ["photos", "--place", catalog.placeID, "--limit", "120", "--prefetch"],
            catalog: catalog)
        #expect(rerun.stderr.hasSuffix("120 of 120 squares ready in \(work.url.path)/cache/thumbs\n"))
        #expect(try jsonObject(try photomap(["cache", "verify", "--json"]))["entries"] as? Int == 120)
    }

    @Test("two processes on one cold cache download each square once and leave it consistent")
    func twoProcesses() throws {
        let paths = (100..<160).map { "/slow/square-\($0).png" }
        let catalog = try catalog(paths)
        // Each process's stderr is kept: a failure says what the process said.
        let logs = (0..<2).map { work.url.appendingPathComponent("process-\($0).err") }
        let processes = try logs.map { log in
            let process = Process()
            process.executableURL = PhotomapBinary.url
            process.arguments = ["--image-host", images.url(""), "photos", "--place", catalog.placeID, "--prefetch"]
            // Through PhotomapBinary.environment, as every run of the binary: under a sanitizer it carries
            // the sanitizer's options (without them LeakSanitizer ran in these two and failed them).
            process.environment = PhotomapBinary.environment([
                "PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path,
                "PHOTOMAP_FIXTURES": catalog.folder.path,
            ])
            process.standardOutput = FileHandle.nullDevice
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
            return process
        }
        try processes.forEach { try $0.run() }
        processes.forEach { $0.waitUntilExit(within: 300, "photomap photos --prefetch") }
        #expect(
            processes.allSatisfy { $0.terminationStatus == 0 },
            "\(logs.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" })")
        for path in paths { #expect(try images.count(of: path) == 1, "\(path)") }
        let verify = try jsonObject(try photomap(["cache", "verify", "--json"]))
        #expect(verify["entries"] as? Int == 60 && verify["corrupt"] as? Int == 0)
        let stats = try jsonObject(try photomap(["cache", "stats", "--json"]))
        #expect(stats["misses"] as? Int == 60 && stats["hits"] as? Int == 60)
    }

    @Test("prune trims to --max-size, clear empties; bad actions and sizes are usage errors")
    func pruneAndClear() throws {
        let catalog = try catalog((144..<154).map { "/ok/square-\($0).png" })
        #expect(try photomap(["photos", "--place", catalog.placeID, "--prefetch"], catalog: catalog).status == 0)
        let pruned = try photomap(["cache", "prune", "--max-size", "5KB"])
        #expect(pruned.status == 0)
        #expect(pruned.stdout.isEmpty && pruned.stderr.hasPrefix("photomap: removed "))
        let stats = try jsonObject(try photomap(["cache", "stats", "--json"]))
        #expect((stats["bytes"] as? Int ?? .max) <= 5 * 1024)
        #expect(try photomap(["cache", "clear"]).status == 0)
        #expect(try jsonObject(try photomap(["cache", "stats", "--json"]))["entries"] as? Int == 0)
        // `cache` alone is `cache stats`.
        #expect(try jsonObject(try photomap(["cache", "--json"]))["entries"] as? Int == 0)
        for arguments in [
            ["cache", "shrink"], ["cache", "prune", "--max-size", "huge"],
            ["cache", "stats", "--max-size", "1MB"],
        ] {
            let result = try photomap(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("photomap: error: "))
        }
    }

    @Test("the embedded catalog's squares come from Fixtures/images, with no network")
    func fixtureImages() throws {
        let images = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/images")
        let result = try PhotomapBinary.run(
            ["photos", "--place", "ZF5fjTrbzrajYU5bkA", "--prefetch"],
            environment: ["PHOTOMAP_CACHE": work.url.path])
        if FileManager.default.fileExists(atPath: images.path) {
            #expect(result.status == 0)
            #expect(result.stderr.hasSuffix("10 of 10 squares ready in \(work.url.path)/thumbs\n"))
        } else {
            #expect(result.stderr.contains("run scripts/setup"))
        }
    }
}

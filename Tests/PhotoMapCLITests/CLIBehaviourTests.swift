import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

@testable import PhotoMapCLI

/// Collects what a command prints.
private final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = "", errText = ""
    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }

    var console: Console {
        Console(
            out: { text in self.lock.withLock { self.outText += text } },
            err: { text in self.lock.withLock { self.errText += text } })
    }
}

@Suite("Command behaviour in process")
struct CLIBehaviourTests {
    let server = LoopbackServer.flickr

    @Test("errors from a server are printed with control characters neutralised and the key redacted")
    func hostileErrorText() throws {
        let key = "KEY-\(UUID().uuidString)"
        let captured = Captured()
        let cache = try TemporaryFolder()
        // The server echoes the method name in its code-112 message: make it hostile and key-bearing.
        let status = PhotoMap.main(
            arguments: ["places", "--cache", cache.url.path],
            environment: [
                "FLICKR_API_KEY": key,
                "PHOTOMAP_ENDPOINT": server.endpoint("fail100"),
            ],
            console: captured.console)
        #expect(status == 1)
        #expect(captured.err.hasPrefix("photomap: error: Flickr rejected the API key (code 100)"))

        let warned = Captured()
        warned.console.redacting(key).warn("bad \u{1B}[2J thing \(key)")
        #expect(warned.err == "photomap: warning: bad  [2J thing [api key]\n")
        let quoted = Captured()
        _ = PhotoMap.main(arguments: ["--api-key", key, key], environment: [:], console: quoted.console)
        #expect(
            quoted.err
                == "photomap: error: unknown command '[api key]'; commands: places, photos, cache, export, find, search, index, serve, recent, import, geotag, fences, users, db, completions, man\n"
        )
    }

    @Test("errors map to exit statuses: usage and a missing key 2, everything else 1")
    func exitStatuses() {
        #expect(ErrorReport(UsageError("x")).exitStatus == 2)
        #expect(ErrorReport(FlickrError.missingAPIKey).exitStatus == 2)
        #expect(ErrorReport(FlickrError.unknownPlace("p")).exitStatus == 1)
        #expect(ErrorReport(HTTPError.status(500, url: "u")).exitStatus == 1)
        #expect(ErrorReport(ThumbnailError.diskFull(path: "/c")).exitStatus == 1)
    }

    @Test("the library says what failed; the command line adds what to do about it")
    func advice() {
        #expect(ThumbnailError.diskFull(path: "/c").description == "the disk holding the cache is full (/c)")
        #expect(
            ErrorReport(ThumbnailError.diskFull(path: "/c")).message
                == "the disk holding the cache is full (/c); free some space or run `photomap cache prune`")
        let index = SQLiteError(message: "file is not a database", code: 26, path: "/c/index.sqlite")
        #expect(!index.description.contains("photomap"))
        #expect(ErrorReport(index).message.hasSuffix("; `photomap index rebuild` makes it anew"))
        #expect(
            ErrorReport(SQLiteError(message: "busy", code: 5, path: "/c/thumbs/.journal.sqlite")).message.contains(
                "rebuild") == false)
        #expect(ErrorReport(HTTPError.status(404, url: "u")).message == "u answered HTTP 404")
        #expect(ErrorReport(LocationError.gazetteerMissing("g")).message.hasSuffix("(scripts/setup)"))
    }

    @Test("the cache folder: --cache, else PHOTOMAP_CACHE, else ./Cache when present, else XDG")
    func cacheFolder() throws {
        let parser = ArgumentParser(globalOptions: Configuration.globalOptions, commands: [PlacesCommand.spec])
        func folder(_ arguments: [String], _ environment: [String: String]) throws -> String {
            try Configuration(parser.parse(arguments), environment: environment).cacheDirectory.path
        }
        #expect(try folder(["places", "--cache", "/tmp/a"], ["PHOTOMAP_CACHE": "/tmp/b"]) == "/tmp/a")
        #expect(try folder(["places"], ["PHOTOMAP_CACHE": "/tmp/b"]) == "/tmp/b")
        let xdg = try folder(["places"], ["XDG_CACHE_HOME": "/tmp/xdg"])
        let hasCheckoutCache = FileManager.default.fileExists(atPath: "Cache")
        #expect(xdg == (hasCheckoutCache ? URL(fileURLWithPath: "Cache").path : "/tmp/xdg/photomap"))
        #expect(throws: UsageError.self) { try folder(["places"], ["PHOTOMAP_TTL": "soon"]) }
        for connections in ["0", "101", "four"] {
            #expect(throws: UsageError.self) { try folder(["places"], ["PHOTOMAP_DATABASE_CONNECTIONS": connections]) }
        }
        #expect(throws: UsageError.self) { try folder(["places", "--cache-limit", "lots"], [:]) }
    }

    @Test(
        "sizes read as people type them",
        arguments: [
            ("200MB", 200 << 20), ("500KB", 500 << 10), ("1.5G", 3 << 29),
            ("4096", 4096), ("12 kib", 12 << 10),
        ])
    func sizes(text: String, bytes: Int) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test("sizes that are not sizes are refused", arguments: ["", "MB", "-5MB", "ten", "1e400"])
    func badSizes(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    @Test("the progress line shows done/total, rate and time left")
    func progressLine() {
        let line = ProgressBar.line(label: "prefetching", done: 50, total: 200, elapsed: 2, width: 8)
        #expect(line == "prefetching  50/200 [##------] 25/s  6s left")
    }
}

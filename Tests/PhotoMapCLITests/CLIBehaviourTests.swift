// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapNetworking
import PhotoMapSupport
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
                == "photomap: error: unknown command '[api key]'; commands: places, photos, cache, export, find, search, index, serve, recent, import, geotag, locate, fences, visibility, trips, visited, users, db, completions, man, help\n"
        )
    }

    @Test(
        "a mistyped command, option or action is a usage error naming the nearest one",
        arguments: [
            (["plcaes"], "unknown command 'plcaes'. Did you mean 'places'?"),
            (["help", "phtoos"], "unknown command 'phtoos'. Did you mean 'photos'?"),
            (["places", "--jsno"], "unknown option --jsno for photomap places. Did you mean --json?"),
            (["places", "--ofline"], "unknown option --ofline for photomap places. Did you mean --offline?"),
            (["cache", "prnue"], "unknown cache action 'prnue'. Did you mean 'prune'?"),
            (
                ["photos", "--place", "a", "--place", "b"],
                "--place takes one value and was given twice: give it once"
            ),
            (["places", "-q", "--verbose"], "--quiet and --verbose ask for opposites: give one of them"),
            (
                ["--api-key", "KEY-one-1234", "places", "--api-key=KEY-two-5678"],
                "--api-key takes one value and was given twice: give it once"
            ),
        ])
    func didYouMean(arguments: [String], message: String) {
        let captured = Captured()
        #expect(PhotoMap.main(arguments: arguments, environment: [:], console: captured.console) == 2)
        #expect(captured.err == "photomap: error: \(message)\n")
        #expect(captured.out.isEmpty)
    }

    @Test("help COMMAND is COMMAND --help: its own options, examples, and one line for the global ones")
    func helpCommand() {
        func run(_ arguments: [String]) -> (Int32, String) {
            let captured = Captured()
            let status = PhotoMap.main(arguments: arguments, environment: [:], console: captured.console)
            #expect(captured.err.isEmpty)
            return (status, captured.out)
        }
        let (status, help) = run(["help", "photos"])
        #expect(status == 0 && run(["photos", "--help"]).1 == help)
        #expect(help.hasPrefix("Usage: photomap photos --place ID"))
        #expect(help.contains("\nExamples:\n  photomap photos --place hS4wMLD0wPIXPXB "))
        #expect(help.contains("Global options (--source, --cache, --offline, -q, -v, …): see photomap --help"))
        #expect(!help.contains("--cache DIR") && !help.contains("--api-key"))
        let general = run(["help"]).1
        #expect(general == run(["--help"]).1)
        #expect(
            general.contains("  -q, --quiet ") && general.contains("  help ")
                && general.contains("PHOTOMAP_FLICKR_CALLS_PER_HOUR"))
        for command in PhotoMap.interface.commands {
            #expect((2...3).contains(command.examples.count), "\(command.name)")
        }
    }

    @Test("every example in help and the man page is a command line the parser accepts")
    func examplesParse() throws {
        for command in PhotoMap.interface.commands {
            for example in command.examples {
                // The shell's words up to a pipe or a redirection, double quotes taken off.
                var words: [String] = []
                var word: String?
                var quoted = false
                for character in example.line + " " {
                    if character == "\"" {
                        quoted.toggle()
                        word = word ?? ""
                    } else if character == " " && !quoted {
                        if let done = word { words.append(done) }
                        word = nil
                    } else {
                        word = (word ?? "") + String(character)
                    }
                }
                let command = words.prefix { $0 != "|" && $0 != ">" }
                let parsed = try PhotoMap.interface.parser.parse(Array(command))
                #expect(parsed.command?.name == command.first { PhotoMap.interface.commands.map(\.name).contains($0) })
            }
        }
    }

    @Test("--output with an ending photomap does not write is a usage error, and nothing is written")
    func unknownExtension() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("places.xlsx")
        let captured = Captured()
        let status = PhotoMap.main(
            arguments: ["places", "--output", file.path, "--cache", folder.url.path], environment: [:],
            console: captured.console)
        #expect(status == 2)
        #expect(
            captured.err
                == "photomap: error: --output places.xlsx: photomap writes no .xlsx files; name it .json, .geojson, "
                + ".kml, .gpx, .csv or .txt (the table), or choose with --format\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("data on stdout, messages on stderr as photomap: …; -q leaves errors only; -v adds each decision")
    func verbosity() throws {
        let folder = try TemporaryFolder()
        func run(_ extra: [String]) -> Captured {
            let captured = Captured()
            let file = folder.url.appendingPathComponent("p\(extra.count).json").path
            let status = PhotoMap.main(
                arguments: ["places", "--output", file, "--cache", folder.url.path] + extra, environment: [:],
                console: captured.console)
            #expect(status == 0 && captured.out.isEmpty)
            return captured
        }
        #expect(run([]).err.hasPrefix("photomap: listing written to "))
        #expect(run(["-q"]).err.isEmpty)
        let console = Captured()
        console.console.saying(.quiet).warn("hidden")
        console.console.saying(.quiet).error("shown")
        console.console.detail("not verbose")
        console.console.saying(.verbose).detail("a decision")
        #expect(console.err == "photomap: error: shown\nphotomap: a decision\n")
        #expect(console.console.trace == nil && console.console.saying(.verbose).trace != nil)
    }

    @Test("-v tells each thumbnail cache miss, then each hit; without it, neither")
    func verboseCache() throws {
        let cache = try TemporaryFolder()
        func prefetch(_ extra: [String]) -> String {
            let captured = Captured()
            let status = PhotoMap.main(
                arguments: ["photos", "--place", "DgkvvkYi_LbSZrDDIIgN", "--prefetch", "--cache", cache.url.path]
                    + extra,
                environment: [:], console: captured.console)
            #expect(status == 0)
            return captured.err
        }
        let cold = prefetch(["-v"]).split(separator: "\n")
        #expect(cold.filter { $0.hasPrefix("photomap: thumbnail cache miss, fetched: https://") }.count == 5, "\(cold)")
        let warm = prefetch(["--verbose"]).split(separator: "\n")
        #expect(warm.filter { $0.hasPrefix("photomap: thumbnail cache hit: https://") }.count == 5, "\(warm)")
        #expect(!prefetch([]).contains("thumbnail cache hit"))
    }

    @Test("colour only on a terminal, never with NO_COLOR or a dumb terminal")
    func colour() {
        #expect(Console.usesColour(errorIsTerminal: true, environment: [:]))
        #expect(Console.usesColour(errorIsTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!Console.usesColour(errorIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!Console.usesColour(errorIsTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!Console.usesColour(errorIsTerminal: false, environment: [:]))
        let captured = Captured()
        let coloured = Console(out: captured.console.out, err: captured.console.err, colours: true)
        coloured.error("bad")
        #expect(captured.err == "photomap: \u{1B}[1;31merror:\u{1B}[0m bad\n")
    }

    @Test("every variable the sources read is in --help or the man page's ENVIRONMENT")
    func environmentDocumented() {
        let page = ManPage.render(PhotoMap.interface, version: PhotoMap.version)
        for variable in Environment.variables {
            #expect(page.contains(ManPage.text(variable.name)), "\(variable.name)")
        }
        for heading in ["EXAMPLES", "ENVIRONMENT", "FILES", "EXIT STATUS", "SEE ALSO"] {
            #expect(page.contains(".SH \(heading)\n"))
        }
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
        #expect(
            ErrorReport(FlickrError.cachedAnswerDamaged(method: "m", key: "ab12", store: "/c/api")).message
                == "--offline: the cached answer for m is damaged and cannot be read (cache key ab12 in /c/api); "
                + "run the same command without --offline to fetch it again")
    }

    @Test("the cache folder: --cache, else PHOTOMAP_CACHE, else ./Cache when present, else XDG")
    func cacheFolder() throws {
        let parser = ArgumentParser(globalOptions: GlobalOptions.declared, commands: [PlacesCommand.spec])
        func folder(_ arguments: [String], _ environment: [String: String]) throws -> String {
            try GlobalOptions(parser.parse(arguments), environment: environment).cacheDirectory.path
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
        // A records import's bar: bytes read, records a second.
        let records = ProgressBar.line(label: "reading records", done: 50, total: 200, elapsed: 2, width: 8, rows: 3000)
        #expect(records == "reading records  50/200 [##------] 1500 rows/s  6s left")
    }
}

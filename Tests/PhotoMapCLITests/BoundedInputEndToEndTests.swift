// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapCLI

/// What users get from hostile answers and arguments, run as they run photomap: a clear error or a
/// record kept without what could not be read, exit status 1 or 2, never a signal, in bounded memory.
@Suite("Bounded input, end to end")
struct BoundedInputEndToEndTests {
    let server = LoopbackServer.flickr
    let key = "SECRET-\(UUID().uuidString)"
    let cache: TemporaryFolder

    init() throws {
        cache = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: cache.url)
    }

    /// `photomap ARGUMENTS` against the Flickr server's `scenario`, with a key and this test's cache.
    func flickr(_ scenario: String, _ arguments: [String]) throws -> MeasuredRun.Result {
        try MeasuredRun.run(
            arguments,
            environment: [
                "FLICKR_API_KEY": key, "PHOTOMAP_ENDPOINT": server.endpoint(scenario),
                "PHOTOMAP_CACHE": cache.url.path,
            ])
    }

    @Test(
        "an answer of 400 MB is refused at the 16 MB limit, with or without a length, in bounded memory",
        arguments: ["length", "close"])
    func hugeAnswer(framing: String) throws {
        for arguments in [["places"], ["photos", "--place", "LATOAYBHhITBWjUq5GkE"]] {
            let usual = try flickr("", arguments)
            #expect(usual.status == 0, "\(usual.stderr)")
            let run = try flickr("huge/400/\(framing)", arguments)
            #expect(
                run.status == 1 && run.stderr.contains("photomap: error: ") && run.stderr.contains("larger than"),
                "\(run.stderr)")
            // Read whole, 400 MB would be resident; refused at the limit, the run stays near the size of
            // the same command on a usual answer (measured, not assumed: a sanitizer's runtime alone
            // takes hundreds of MB).
            #expect(
                run.peakKilobytes - usual.peakKilobytes < 200 << 10,
                "peak \(run.peakKilobytes) KB, usually \(usual.peakKilobytes) KB")
        }
    }

    @Test("import of a folder holding a /proc link, a 400 MB text file and JPEG bombs: bounded, each named")
    func hostileImportFolder() throws {
        let photos = try TemporaryFolder(), usualCache = try TemporaryFolder()
        func file(_ name: String) -> URL { photos.url.appendingPathComponent(name) }
        try ExifJPEG.make(ExifJPEG.quarters(width: 320, height: 200), exif: nil).write(to: file("photo.jpg"))
        let usual = try MeasuredRun.run(["--cache", usualCache.url.path, "import", photos.url.path])
        #expect(usual.status == 0, "\(usual.stderr)")
        try FileManager.default.createSymbolicLink(
            at: file("pagemap"), withDestinationURL: URL(fileURLWithPath: "/proc/self/pagemap"))
        try FileManager.default.createSymbolicLink(at: file("proc"), withDestinationURL: URL(fileURLWithPath: "/proc"))
        // Sparse: 400 MB that take no disk, and that import should not read (its first bytes say text).
        try Data("shopping list".utf8).write(to: file("notes.txt"))
        try FileHandle(forWritingTo: file("notes.txt")).truncate(atOffset: 400 << 20)
        try HostileJPEG.scanBomb(width: 640, height: 480, scans: 1_000).write(to: file("scans.jpg"))
        try HostileJPEG.progressiveDeclaring(width: 9_990, height: 10_000).write(to: file("huge.jpg"))
        let run = try MeasuredRun.run(["--cache", cache.url.path, "import", "--report", photos.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        for line in [
            "/pagemap: in /proc, which is not read", "/proc: in /proc, which is not read",
            "/notes.txt: not a JPEG or HEIC photo", "/scans.jpg: JPEG too costly to decode: more than 500 scans",
            "/huge.jpg: JPEG too costly to decode: needs 584 MB to read and decode, over the limit of 512 MB",
        ] {
            #expect(run.stdout.contains(line), "\(line) in \(run.stdout)")
        }
        // Read whole, the text file alone would be 400 MB resident, and the link to pagemap without end.
        #expect(
            run.peakKilobytes - usual.peakKilobytes < 100 << 10,
            "peak \(run.peakKilobytes) KB, usually \(usual.peakKilobytes) KB")
    }

    @Test("JSON nested 1,000 deep: an error naming the method, exit 1")
    func deepAnswer() throws {
        for (arguments, method) in [
            (["places"], "flickr.places.getTopPlacesList"),
            (["photos", "--place", "LATOAYBHhITBWjUq5GkE"], "flickr.photos.search"),
        ] {
            let run = try flickr("hostile/deep", arguments)
            #expect(run.status == 1)
            #expect(
                run.stderr.hasPrefix("photomap: error: Flickr's answer to \(method) is not valid: "),
                "\(run.stderr)")
        }
    }

    @Test(
        "invalid UTF-8 or a raw NUL in a title costs the title: the photo is listed as Unknown",
        arguments: ["bad-utf8", "raw-nul"])
    func unreadableTitle(kind: String) throws {
        let run = try flickr("hostile/\(kind)", ["photos", "--place", "LATOAYBHhITBWjUq5GkE", "--json"])
        #expect(run.status == 0)
        let records = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(records?.count == 1 && records?.first?["title"] as? String == "Unknown")
    }

    @Test("NUL and escape sequences a record holds never reach the terminal raw; JSON escapes them")
    func controlCharactersInRecords() throws {
        let table = try flickr("hostile/escaped-nul", ["places"])
        #expect(
            table.status == 0 && table.stdout.contains("a b [2J") && !table.stdout.contains("\u{1B}")
                && !table.stdout.contains("\u{0}"))
        let json = try flickr("hostile/escaped-nul", ["photos", "--place", "LATOAYBHhITBWjUq5GkE", "--json"])
        #expect(json.status == 0)
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(records?.first?["title"] as? String == "a\u{0}b\u{1B}[2J")
    }

    @Test("numbers with 1,000 digits in an answer cost their field; the record is listed without a coordinate")
    func thousandDigitAnswer() throws {
        let run = try flickr("hostile/long-number", ["places", "--json"])
        #expect(run.status == 0)
        let records = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(records?.count == 1 && records?.first?["latitude"] is NSNull)
    }

    @Test(
        "a number with 1,000 digits in an argument is a usage error naming the option",
        arguments: [
            ["photos", "--place", "p", "--limit", String(repeating: "9", count: 1000)],
            ["search", "bridge", "--near", "40,-73", "--radius", String(repeating: "9", count: 1000)],
            ["--connections", String(repeating: "9", count: 1000), "places"],
            ["--cache-limit", String(repeating: "9", count: 1000) + "MB", "places"],
        ])
    func thousandDigitArguments(arguments: [String]) throws {
        let run = try MeasuredRun.run(arguments, environment: ["PHOTOMAP_CACHE": cache.url.path])
        #expect(run.status == 2 && run.stderr.hasPrefix("photomap: error: --"), "\(run.stderr)")
    }

    @Test("a 1,000-digit coordinate is no coordinate: --near and find say so, exit 1 or 2")
    func thousandDigitCoordinate() throws {
        let digits = String(repeating: "9", count: 1000)
        for arguments in [["find", "\(digits),\(digits)"], ["search", "bridge", "--near", "\(digits),\(digits)"]] {
            let run = try MeasuredRun.run(arguments, environment: ["PHOTOMAP_CACHE": cache.url.path])
            #expect(
                run.status == 1 || run.status == 2,
                "\(arguments[0]): \(String(describing: run.status)) \(run.stderr)")
            #expect(run.stderr.hasPrefix("photomap: error: "))
        }
    }

    @Test("invalid UTF-8 in arguments: read with U+FFFD in its place, a clear error, valid UTF-8 on stderr")
    func invalidUTF8Arguments() throws {
        // No letter or digit survives decoding: find has nothing to look for.
        let invalid: [UInt8] = [0xFF, 0xFE, 0xC3, 0x28, 0x80]
        for arguments in [
            [Array("photos".utf8), Array("--place".utf8), invalid], [Array("find".utf8), invalid],
            [Array("places".utf8), Array("--format".utf8), invalid], [invalid],
        ] {
            let run = try MeasuredRun.run(arguments, environment: ["PHOTOMAP_CACHE": cache.url.path])
            #expect(
                run.signal == nil && (run.status == 1 || run.status == 2),
                "\(String(describing: run.status)) \(run.stderr)")
            #expect(run.stderr.hasPrefix("photomap: error: ") && run.stderr.contains("\u{FFFD}"), "\(run.stderr)")
        }
    }

    @Test(
        "NUL in arguments (only a caller of PhotoMap.main can pass one): a clear error, control characters shown as spaces"
    )
    func nulArguments() throws {
        let printed = Locked((out: "", err: ""))
        let console = Console(
            out: { text in printed.withLock { $0.out += text } },
            err: { text in printed.withLock { $0.err += text } })
        for arguments in [
            ["photos", "--place", "a\u{0}b"], ["find", "\u{0}"], ["places", "--format", "json\u{0}"],
            ["pla\u{0}ces"],
        ] {
            printed.withLock { $0 = ("", "") }
            let status = PhotoMap.main(
                arguments: arguments, environment: ["PHOTOMAP_CACHE": cache.url.path],
                console: console)
            let errors = printed.withLock { $0.err }
            #expect(status == 1 || status == 2, "\(arguments): \(status)")
            #expect(errors.hasPrefix("photomap: error: ") && !errors.contains("\u{0}"), "\(errors.debugDescription)")
        }
    }
}

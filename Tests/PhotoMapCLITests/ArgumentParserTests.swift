// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapCLI

@Suite("Command-line parsing")
struct ArgumentParserTests {
    enum Action: String, CommandAction {
        case stats, clear
        var summary: String { rawValue }
    }

    // Read back as commands read theirs: through the declarations, never by name.
    static let cache = Option<String>.path("cache", .directory("DIR"), "")
    static let offline = Flag("offline", "")
    static let place = Option<String>.text("place", "ID", "", required: true)
    static let near = Option<String>.text("near", "LAT,LON", "")
    static let json = Flag("json", "")
    static let gpx = Option<String>.files("gpx", "FILE", "", moreEnding: ".gpx")

    let parser = ArgumentParser(
        globalOptions: [
            cache.spec, offline.spec, .value("source", .choice(["fixtures", "flickr"]), ""),
        ] + ArgumentParser.standardOptions,
        commands: [
            CommandSpec(name: "photos", summary: "", options: [place.spec, near.spec, json.spec]),
            CommandSpec(name: "find", summary: "", options: [], arguments: .words("QUERY")),
            CommandSpec(name: "import", summary: "", options: [gpx.spec, json.spec], arguments: .words("PATH...")),
            CommandSpec(name: "cache", summary: "", options: [], arguments: Action.declared),
        ])

    @Test("global options go before or after the command; --name=value and --name value both work")
    func placement() throws {
        let before = try parser.parse(["--cache", "/tmp/c", "photos", "--place=abc", "--json"])
        let after = try parser.parse(["photos", "--place", "abc", "--json", "--cache=/tmp/c"])
        for parsed in [before, after] {
            #expect(parsed.command?.name == "photos")
            #expect(try parsed.value(Self.cache) == "/tmp/c")
            #expect(try parsed.value(Self.place) == "abc")
            #expect(parsed.has(Self.json))
            #expect(!parsed.has(Self.offline))
        }
    }

    @Test("a value may start with a dash (a negative coordinate); a positional may be a negative number")
    func negativeValues() throws {
        #expect(
            try parser.parse(["photos", "--place", "p", "--near", "-33.86,151.2"]).value(Self.near) == "-33.86,151.2")
        #expect(try parser.parse(["find", "-12"]).arguments == ["-12"])
        #expect(try parser.parse(["find", "--", "--literal"]).arguments == ["--literal"])
    }

    @Test(
        "mistakes are usage errors that say what to do",
        arguments: [
            (["photos", "--place"], "--place needs a value: --place ID"),
            (["photos", "--place", "--json"], "--place needs a value: --place ID"),
            (["photos", "--place", "p", "--json=yes"], "--json takes no value"),
            (["--json", "photos"], "--json belongs after the command: photomap photos --json …"),
            (["photos", "--nope"], "unknown option --nope for photomap photos; see photomap photos --help"),
            (["photos", "-x"], "unknown option '-x' (options are spelled --name)"),
            (["photos", "stray"], "'photos' takes no argument 'stray'; see photomap photos --help"),
            (["walk"], "unknown command 'walk'; commands: photos, find, import, cache"),
            (["photos"], "photos needs --place ID"),
            (["photos", "--place="], "photos needs --place ID"),
            (["find", "--source", "bing"], "--source must be fixtures or flickr, not 'bing'"),
            (["find", "--source=Flickr"], "--source must be fixtures or flickr, not 'Flickr'"),
            (["cache"], "cache needs one action: stats or clear"),
            (["cache", "drop"], "unknown cache action 'drop': use stats or clear"),
            (["cache", "stats", "clear"], "cache takes one action; 'clear' is one too many"),
            (["phtoos"], "unknown command 'phtoos'. Did you mean 'photos'?"),
            (["fnid", "x"], "unknown command 'fnid'. Did you mean 'find'?"),
            (["photos", "--palce", "p"], "unknown option --palce for photomap photos. Did you mean --place?"),
            (
                ["photos", "--place", "p", "--offlien"],
                "unknown option --offlien for photomap photos. Did you mean --offline?"
            ),
            (["--cahce", "x", "photos"], "unknown option --cahce for photomap. Did you mean --cache?"),
            (["cache", "stat"], "unknown cache action 'stat'. Did you mean 'stats'?"),
            (
                ["photos", "--place", "a", "--place", "b"],
                "--place takes one value and was given twice: give it once"
            ),
            (
                ["--cache", "/a", "photos", "--place", "p", "--cache=/b"],
                "--cache takes one value and was given twice: give it once"
            ),
            (["photos", "-z"], "unknown option '-z' (options are spelled --name)"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parser.parse(arguments) }
    }

    @Test(
        "an option taking several values takes the words after its first that end so, and no others",
        arguments: [
            (["import", "pics", "--gpx", "a.gpx", "b.GPX", "c.gpx"], ["a.gpx", "b.GPX", "c.gpx"], ["pics"]),
            (["import", "--gpx", "a.gpx", "b.gpx", "pics", "more.jpg"], ["a.gpx", "b.gpx"], ["pics", "more.jpg"]),
            (["import", "--gpx", "walk.xml", "b.gpx", "--json", "pics"], ["walk.xml", "b.gpx"], ["pics"]),
            (["import", "--gpx", "a.gpx", "pics", "--gpx", "b.gpx", "c.gpx"], ["a.gpx", "b.gpx", "c.gpx"], ["pics"]),
            (["import", "--gpx=a.gpx", "b.gpx", "pics"], ["a.gpx", "b.gpx"], ["pics"]),
            (["import", "--gpx", "a.gpx", "--", "b.gpx"], ["a.gpx"], ["b.gpx"]),
        ])
    func severalValues(arguments: [String], values: [String], positional: [String]) throws {
        let parsed = try parser.parse(arguments)
        #expect(try parsed.all(Self.gpx) == values)
        #expect(parsed.arguments == positional)
    }

    @Test("-h, --help and --version are noted anywhere, and excuse a missing required option or action")
    func helpAndVersion() throws {
        #expect(try parser.parse(["-h"]).wantsHelp)
        #expect(try parser.parse(["photos", "--help"]).wantsHelp)
        #expect(try parser.parse(["cache", "--help"]).wantsHelp)
        #expect(try parser.parse(["--version"]).wantsVersion)
        #expect(try parser.parse(["photos", "--version"]).wantsVersion)
    }

    @Test("-q and -v are --quiet and --verbose; both at once is a usage error; a flag may be repeated")
    func verbosity() throws {
        #expect(try ArgumentParser.verbosity(parser.parse(["-q", "photos", "--place", "p"])) == .quiet)
        #expect(try ArgumentParser.verbosity(parser.parse(["photos", "--place", "p", "--verbose"])) == .verbose)
        #expect(try ArgumentParser.verbosity(parser.parse(["photos", "--place", "p", "--json", "--json"])) == .normal)
        #expect(throws: UsageError("--quiet and --verbose ask for opposites: give one of them")) {
            try ArgumentParser.verbosity(parser.parse(["-q", "find", "x", "-v"]))
        }
    }

    @Test(
        "a typo is one edit in three characters from the word meant, a swap of neighbours one edit",
        arguments: [
            ("plcaes", "places"), ("palces", "places"), ("place", "places"), ("serv", "serve"), ("EXPORT", "export"),
            ("expotr", "export"), ("seach", "search"),
        ])
    func nearest(typed: String, meant: String) {
        let commands = ["places", "photos", "export", "find", "search", "serve", "fences", "index"]
        #expect(Suggestion.nearest(to: typed, in: commands) == meant)
    }

    @Test("words too far from any are given no suggestion", arguments: ["walk", "pl", "xyzzy", "qqqqqq"])
    func noNearest(typed: String) {
        #expect(Suggestion.nearest(to: typed, in: ["places", "photos", "export", "find"]) == nil)
        #expect(Suggestion.editDistance("plcaes", "places") == 1 && Suggestion.editDistance("", "abc") == 3)
    }

    @Test("an action is read back as the command's enum")
    func actions() throws {
        #expect(try parser.parse(["cache", "clear"]).action(Action.self) == .clear)
    }

    @Test("usage lines come from the declaration: required options bare, the rest in brackets")
    func usage() {
        #expect(parser.commands[0].usage == "photomap photos --place ID [--near LAT,LON] [--json]")
        #expect(parser.commands[1].usage == "photomap find QUERY")
        #expect(parser.commands[2].usage == "photomap import PATH... [--gpx FILE...] [--json]")
        #expect(parser.commands[3].usage == "photomap cache stats|clear")
    }
}

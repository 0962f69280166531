import Testing
@testable import PhotoMapCLI

@Suite("Command-line parsing")
struct ArgumentParserTests {
    let parser = ArgumentParser(
        globalOptions: [.value("cache", "DIR", ""), .flag("offline", "")],
        commands: [
            CommandSpec(name: "photos", summary: "", usage: "", options: [.value("place", "ID", ""), .value("near", "LAT,LON", ""), .flag("json", "")]),
            CommandSpec(name: "find", summary: "", usage: "", options: [], acceptsArguments: true),
        ])

    @Test("global options go before or after the command; --name=value and --name value both work")
    func placement() throws {
        let before = try parser.parse(["--cache", "/tmp/c", "photos", "--place=abc", "--json"])
        let after = try parser.parse(["photos", "--place", "abc", "--json", "--cache=/tmp/c"])
        for parsed in [before, after] {
            #expect(parsed.command?.name == "photos")
            #expect(parsed.value("cache") == "/tmp/c")
            #expect(parsed.value("place") == "abc")
            #expect(parsed.has("json"))
            #expect(!parsed.has("offline"))
        }
    }

    @Test("a value may start with a dash (a negative coordinate); a positional may be a negative number")
    func negativeValues() throws {
        #expect(try parser.parse(["photos", "--near", "-33.86,151.2"]).value("near") == "-33.86,151.2")
        #expect(try parser.parse(["find", "-12"]).arguments == ["-12"])
        #expect(try parser.parse(["find", "--", "--literal"]).arguments == ["--literal"])
    }

    @Test("mistakes are usage errors that say what to do", arguments: [
        (["photos", "--place"], "--place needs a value: --place ID"),
        (["photos", "--place", "--json"], "--place needs a value: --place ID"),
        (["photos", "--json=yes"], "--json takes no value"),
        (["--json", "photos"], "--json belongs after the command: photomap photos --json …"),
        (["photos", "--nope"], "unknown option --nope for photomap photos; see photomap photos --help"),
        (["photos", "-x"], "unknown option '-x' (options are spelled --name)"),
        (["photos", "stray"], "'photos' takes no argument 'stray'; see photomap photos --help"),
        (["walk"], "unknown command 'walk'; commands: photos, find"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parser.parse(arguments) }
    }

    @Test("-h and --help are noted anywhere")
    func help() throws {
        #expect(try parser.parse(["-h"]).wantsHelp)
        #expect(try parser.parse(["photos", "--help"]).wantsHelp)
    }
}

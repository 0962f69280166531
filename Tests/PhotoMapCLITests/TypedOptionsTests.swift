// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import Testing

@testable import PhotoMapCLI

@Suite("Options read through their typed declarations")
struct TypedOptionsTests {
    let parser = PhotoMap.interface.parser

    @Test("a value is its declared type: given, else the declared default, else nil")
    func givenOrDefault() throws {
        let given = try parser.parse(["export", "--out", "site", "--limit", "7", "--blur-locations", "2.5"])
        #expect(try given.value(ExportCommand.limitOption) == 7)
        #expect(try given.value(ExportCommand.blurOption) == 2.5)
        #expect(try given.value(ExportCommand.audienceOption) == .public)
        #expect(try given.value(ExportCommand.placesOption) == nil)
        #expect(!given.has(ExportCommand.audienceOption))
        let sized = try parser.parse(["cache", "prune", "--max-size", "2MB"])
        #expect(try sized.value(CacheCommand.maxSizeOption) == 2 << 20)
        #expect(try sized.value(GlobalOptions.cacheLimitOption) == 512 << 20)
    }

    @Test("a repeated option's values, in order; a choice's former word is read as its word now")
    func repeatedAndAliases() throws {
        let parsed = try parser.parse(["--source", "fixtures", "geotag", "--gpx", "a.gpx", "b.gpx", "--gpx", "c.gpx"])
        #expect(try parsed.all(TrackOptions.gpx) == ["a.gpx", "b.gpx", "c.gpx"])
        #expect(try parsed.value(GlobalOptions.sourceOption) == .embedded)
    }

    @Test("each command's options decode once, with the usage errors of values that do not go together")
    func commandOptions() throws {
        let global = try GlobalOptions(parser.parse(["places"]), environment: [:])
        func decode<Options: CommandOptions>(_: Options.Type, _ arguments: [String]) throws -> Options {
            try Options(parser.parse(arguments), global: global)
        }
        let located = try decode(LocateCommand.Options.self, ["locate", "local-0a", "--at", "46.3625,14.0936"])
        guard case let .at(coordinate) = located.target else { throw UsageError("not --at") }
        #expect(coordinate.latitude == 46.3625 && coordinate.longitude == 14.0936)
        #expect(throws: UsageError("--json goes with fences list")) {
            try decode(FencesCommand.Options.self, ["fences", "remove", "home", "--json"])
        }
        #expect(throws: UsageError("--radius goes with fences add")) {
            try decode(FencesCommand.Options.self, ["fences", "list", "--radius", "100"])
        }
        #expect(throws: UsageError("--near goes with fences add")) {
            try decode(FencesCommand.Options.self, ["fences", "remove", "home", "--radius", "100", "--near", "1,2"])
        }
        #expect(throws: UsageError("--max-size goes with cache prune")) {
            try decode(CacheCommand.Options.self, ["cache", "clear", "--max-size", "1MB"])
        }
    }

    @Test("--map decodes into a listing's options: FILE.html, else photomap-COMMAND.html; not with --show-fenced")
    func mapFile() throws {
        let global = try GlobalOptions(parser.parse(["places"]), environment: [:])
        func page(_ arguments: [String]) throws -> String? {
            try ListingOptions(parser.parse(arguments), global: global).map?.lastPathComponent
        }
        #expect(try page(["places"]) == nil)
        #expect(try page(["places", "--map"]) == "photomap-places.html")
        #expect(try page(["recent", "--map"]) == "photomap-recent.html")
        #expect(try page(["recent", "--map", "seen"]) == "seen.html")
        #expect(try page(["places", "--map=top.htm"]) == "top.htm")
        #expect(throws: UsageError("--show-fenced is your own view in the terminal: it does not go with --map")) {
            try GlobalOptions(parser.parse(["places", "--map", "--show-fenced"]), environment: [:])
        }
    }

    @Test("a variable standing for an option is checked as the option is, and named in the error")
    func variableChecked() throws {
        let parsed = try parser.parse(["import", "photos"])
        let environment = ["PHOTOMAP_VISIBILITY": "everyone"]
        let global = try GlobalOptions(parsed, environment: environment)
        #expect(
            throws: UsageError(
                "PHOTOMAP_VISIBILITY must be one of public, friends, family, friends+family or private, not 'everyone'")
        ) {
            try ImportCommand.Options(parsed, global: global)
        }
    }
}

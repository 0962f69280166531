// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapCLI

/// The formats' readers from elsewhere (geojson, lxml and fastkml, gpxpy, csv) check the same
/// output in Tests/Formats; these runs check the command line around it.
@Suite("--format, --output, --version, completions and the man page, end to end")
struct FormatsEndToEndTests {
    let newYork = "LATOAYBHhITBWjUq5GkE"

    @Test("--format json is --json; the formats agree on how many records there are")
    func formatsAgree() throws {
        let json = try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--json"])
        #expect(
            try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--format", "json"]).stdout
                == json.stdout)
        let count = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any]).count
        let csv = try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--format=csv"])
        #expect(csv.status == 0 && csv.stderr.isEmpty)
        #expect(csv.stdout.hasPrefix("kind,id,title,subtitle,latitude,longitude,"))
        let kml = try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--format", "kml"]).stdout
        #expect(kml.components(separatedBy: "<Placemark>").count - 1 == count)
        let gpx = try PhotomapBinary.run(["photos", "--place", newYork, "--limit", "4000", "--format", "gpx"])
        let waypoints = gpx.stdout.components(separatedBy: "<wpt ").count - 1
        #expect(waypoints > 0 && waypoints < count)
        #expect(
            gpx.stderr
                == "photomap: warning: \(count - waypoints) of \(count) records have no coordinate and are not in the GPX: a waypoint needs one\n"
        )
    }

    @Test("--output writes the file whole, chooses the format by extension, and says so on stderr only")
    func output() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("places.geojson")
        let result = try PhotomapBinary.run(["places", "--output", file.path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("photomap: listing written to \(file.path) ("))
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == (try PhotomapBinary.run(["places", "--format", "geojson"])).stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["places.geojson"])
        // A table goes to the file too, unclipped.
        let table = folder.url.appendingPathComponent("places.txt")
        #expect(try PhotomapBinary.run(["places", "--output", table.path]).status == 0)
        #expect(try String(contentsOf: table, encoding: .utf8).hasPrefix("PLACE ID"))
    }

    @Test("a file that cannot be written is a failure that leaves nothing behind")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        let result = try PhotomapBinary.run([
            "places", "--format", "kml", "--output",
            folder.url.appendingPathComponent("no/such/places.kml").path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("could not write") && result.stderr.contains("No such file or directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test(
        "format mistakes are usage errors",
        arguments: [
            (
                ["places", "--format", "xml"],
                "--format must be one of table, json, geojson, kml, gpx or csv, not 'xml'"
            ),
            (
                ["places", "--json", "--format", "csv"],
                "--json is short for --format json; it cannot go with --format csv"
            ),
            (["places", "--output="], "--output needs a file name"),
            (["completions"], "completions needs one action: bash, zsh or fish"),
            (["completions", "tcsh"], "unknown completions action 'tcsh': use bash, zsh or fish"),
        ])
    func mistakes(arguments: [String], message: String) throws {
        let result = try PhotomapBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "photomap: error: \(message)\n")
    }

    @Test("--version names photomap and each C library with a version")
    func version() throws {
        let result = try PhotomapBinary.run(["--version"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "photomap \(PhotoMap.version)")
        for (name, index) in [
            ("libcurl", 1), ("libpng", 2), ("libjpeg-turbo", 3), ("SQLite", 4), ("libcrypto", 5),
            ("glibc", 6),
        ] {
            let words = lines[index].split(separator: " ")
            #expect(words.first.map(String.init) == name)
            #expect(words.count > 1 && words[1].first?.isNumber == true)
        }
    }

    @Test("every command and option declared is in each shell's completions and in the man page")
    func everythingDeclaredIsCompleted() throws {
        let interface = PhotoMap.interface
        let scripts = [
            BashCompletion.script(interface), ZshCompletion.script(interface),
            FishCompletion.script(interface),
        ]
        let man = ManPage.render(interface, version: PhotoMap.version)
        for command in interface.commands {
            for script in scripts { #expect(script.contains(command.name)) }
            #expect(man.contains(".SS \(command.name)\n"))
            for option in command.options + interface.globalOptions {
                #expect(scripts[0].contains("--\(option.name)"))
                #expect(scripts[1].contains("'--\(option.name)"))
                #expect(scripts[2].contains("-l \(option.name) "))
                #expect(man.contains("\\fB\\-\\-\(option.name.replacingOccurrences(of: "-", with: "\\-"))\\fR"))
            }
            for action in command.actions {
                for script in scripts { #expect(script.contains(action.name)) }
            }
        }
    }

    @Test("the man page text: escapes, code in bold, non-ASCII as groff's Unicode escapes, no line read as a request")
    func roffText() {
        #expect(
            ManPage.text("--map `photomap places` 75×75 \\n") == "\\-\\-map \\fBphotomap places\\fR 75\\[u00D7]75 \\en")
        #expect(ManPage.text(".hostile") == "\\&.hostile")
        #expect(ManPage.text("'quoted") == "\\&'quoted")
    }
}

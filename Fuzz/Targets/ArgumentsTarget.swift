// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapCLI
import PhotoMapKit
import PhotoMapSupport

/// The command line: each input line is one argument (NUL, control characters and repaired invalid
/// UTF-8 included), run through `PhotoMap.main` in the sandbox with a console that collects what it
/// prints. Property: exit status 0, 1 or 2; a failure says `photomap: error: …` on stderr; no error
/// or warning holds a control character (a hostile argument cannot drive the terminal through one).
///
/// Inputs that would leave the sandbox are declined: `serve` (it runs until a signal), `--api-key`
/// (calls to Flickr), `--image-host` (downloads), and any argument naming a path outside the working
/// folder (absolute, or with `..`).
enum ArgumentsTarget {
    static let target = FuzzTarget(
        name: "arguments",
        summary: "the argument parser and option checks, through PhotoMap.main with a collecting console",
        // An input can be a whole `export` of the sandbox's catalog: about 8 s under AddressSanitizer
        // and coverage on a quiet machine (a 10-minute run on a loaded one stopped at the 10 s default).
        options: ["-max_len=2048", "-timeout=60"],
        prepare: {
            FuzzSandbox.shared.runFromInside()
            // The working folder: relative paths in arguments (--out, --output, --map) land in it.
            guard FileManager.default.changeCurrentDirectoryPath(FuzzSandbox.shared.work.path) else {
                propertyFailed("cannot work in \(FuzzSandbox.shared.work.path)")
            }
        }
    ) { bytes in
        let arguments = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard !arguments.contains(where: leavesSandbox) else { return false }
        let sandbox = FuzzSandbox.shared
        let environment = [
            "PHOTOMAP_CACHE": sandbox.cache.path, "PHOTOMAP_FIXTURES": sandbox.catalog.path,
            "HOME": sandbox.work.path, "PATH": "/usr/bin:/bin",
        ]
        let output = Collected()
        let console = Console(out: { output.append(out: $0) }, err: { output.append(err: $0) })
        let status = PhotoMap.main(arguments: arguments, environment: environment, console: console)
        let errors = output.text.withLock { $0.err }
        // What a run wrote in the working folder goes, so that the next input finds it as the first did.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sandbox.work.path)) ?? [] {
            try? FileManager.default.removeItem(at: sandbox.work.appendingPathComponent(name))
        }
        require([0, 1, 2].contains(status), "exit status \(status) for \(arguments)")
        if status != 0 {
            require(
                errors.contains("photomap: error: "),
                "exit status \(status) without an error message for \(arguments): \(errors.debugDescription)")
        }
        for line in errors.split(separator: "\n")
        where line.hasPrefix("photomap: error: ") || line.hasPrefix("photomap: warning: ") {
            require(
                !line.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "a control character in \(line.debugDescription) for \(arguments)")
        }
        return true
    }

    /// Whether running `argument` could reach outside the sandbox.
    static func leavesSandbox(_ argument: String) -> Bool {
        argument == "serve" || argument.hasPrefix("--api-key") || argument.hasPrefix("--image-host")
            || argument.hasPrefix("/") || argument.contains("=/") || argument.contains("..")
    }

    /// What a console printed (commands may print from worker threads).
    final class Collected: Sendable {
        let text = Locked((out: "", err: ""))

        func append(out piece: String) { text.withLock { $0.out += piece } }
        func append(err piece: String) { text.withLock { $0.err += piece } }
    }
}

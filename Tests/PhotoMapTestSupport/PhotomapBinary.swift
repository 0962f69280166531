// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// Runs the built `photomap` executable as a user would, capturing what it prints and its exit status.
public enum PhotomapBinary {
    /// What one run printed and returned.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The executable `PHOTOMAP_BIN` names (scripts/test runs the release build: naming places costs a
    /// debug binary about six times the CPU at every import), else the one beside the test bundle
    /// (swift build puts all products in one folder).
    public static let url: URL = {
        if let named = ProcessInfo.processInfo.environment["PHOTOMAP_BIN"], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = productsFolder.appendingPathComponent("photomap")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return LoopbackServer.repositoryRoot.appendingPathComponent(".build/debug/photomap")
    }()

    /// What a run inherits from the tests' own environment: PATH and HOME, and the sanitizer's options
    /// when the tests run under one (scripts/test), so that the binary reports where the tests do.
    /// Nothing else: the developer's own FLICKR_API_KEY or cache never leaks into a test.
    public static func environment(_ settings: [String: String]) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"] { environment[name] = inherited[name] }
        return environment.merging(settings) { $1 }
    }

    /// Runs `photomap arguments…` in `folder` with only the given environment (plus what
    /// `environment(_:)` inherits).
    /// The status is the signal's number when a signal ended it. One runner for every test (`MeasuredRun`).
    public static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws
        -> Result
    {
        let run = try MeasuredRun.run(arguments.map { Array($0.utf8) }, environment: environment, in: folder)
        return Result(status: run.status ?? run.signal ?? -1, stdout: run.stdout, stderr: run.stderr)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What `photomap` makes in an empty cache folder on first use of the embedded catalog: the
/// gazetteer's index and the local search index holding the catalog. Made once per test process by
/// the binary under test (`photomap index stats`), then copied into the cache folders of suites that
/// start from an empty cache but do not test how the indexes are made. Making them costs seconds in a
/// debug build and ~25 s under AddressSanitizer, and `serve` makes them before it answers; a copy
/// costs milliseconds. Only for runs on the embedded catalog: another PHOTOMAP_FIXTURES is another index.
public enum PrebuiltIndexes {
    static let folder = Result<URL, any Error> {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("photomap-test-indexes-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(
                at: FileManager.default.temporaryDirectory
                    .appendingPathComponent("photomap-test-indexes-\(ProcessInfo.processInfo.processIdentifier)"))
        }
        let made = try PhotomapBinary.run(["index", "stats"], environment: ["PHOTOMAP_CACHE": folder.path])
        guard made.status == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSDebugDescriptionErrorKey: "photomap index stats said: \(made.stderr)"])
        }
        return folder
    }

    /// Copies every file the first use made into `cache`, which is made if missing.
    public static func copy(into cache: URL) throws {
        let template = try folder.get()
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: template.path) {
            try FileManager.default.copyItem(
                at: template.appendingPathComponent(name),
                to: cache.appendingPathComponent(name))
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// GPX files as `import --gpx` and `geotag` read them (libxml2's streaming reader, then the track points'
/// attributes and times). Property: never a crash; a file is read or refused with a `GeotagError`; every
/// fix is in range with a finite time, and the track locates each fix's own time at that fix.
enum GPXTarget {
    /// One file, rewritten for each input: GPXReader reads a path, as libxml2 streams from it.
    static let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "photomap-fuzz-gpx-\(ProcessInfo.processInfo.processIdentifier).gpx")

    static let target = FuzzTarget(
        name: "gpx",
        summary: "GPX tracks through libxml2's reader: GeotagError or fixes in range that locate their own times",
        options: ["-max_len=65536", "-malloc_limit_mb=64", "-rss_limit_mb=1024"]
    ) { bytes in
        guard (try? Data(bytes).write(to: file)) != nil else { propertyFailed("cannot write \(file.path)") }
        let read: GPXTrackFile
        do {
            read = try GPXReader.read(path: file.path)
        } catch is GeotagError {
            return true
        } catch {
            propertyFailed("not a GeotagError: \(error)")
        }
        for fix in read.fixes {
            require(
                (-90...90).contains(fix.latitude) && (-180...180).contains(fix.longitude) && fix.time.isFinite,
                "fix \(fix)")
        }
        let fixes = TrackFixes(read.fixes)
        for time in fixes.times { require(fixes.location(at: time) != nil, "no location at a fix's time \(time)") }
        require(read.skipped.allSatisfy { $0.line >= 1 }, "a skipped point without its line")
        return true
    }
}

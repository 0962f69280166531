// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapFuzzTargets

// photomap-fuzz-replay TARGET FILE|FOLDER…: runs each input once through a fuzz target, its property
// checked as under libFuzzer, without libFuzzer: `scripts/sanitize address` replays every target's seeds
// (Fuzz/Corpus/TARGET) in its AddressSanitizer build, so CI keeps them as regression tests without a
// fuzzing build of its own. A broken property stops the process (abort) after naming the input.

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for target in FuzzTargets.all { print(target.name) }
    exit(0)
}
guard arguments.count >= 3, let target = FuzzTargets.named(arguments[1]) else {
    FileHandle.standardError.write(
        Data("usage: photomap-fuzz-replay TARGET FILE|FOLDER…; targets: \(FuzzTargets.names)\n".utf8))
    exit(2)
}

/// The files named, a folder's in name order; read before the target's preparation, which may change the
/// working folder.
func inputs(_ paths: ArraySlice<String>) -> [(name: String, bytes: [UInt8])] {
    var found: [(String, [UInt8])] = []
    for path in paths {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("photomap-fuzz-replay: no such file or folder: \(path)\n".utf8))
            exit(1)
        }
        let files =
            isFolder.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                url.appendingPathComponent($0)
            } : [url]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            found.append((file.path, [UInt8](data)))
        }
    }
    return found
}

let seeds = inputs(arguments.dropFirst(2))
target.prepare()
let started = Date()
for seed in seeds {
    // Named first, so that a property's abort or a sanitizer's report can be traced to its input.
    FileHandle.standardError.write(Data("photomap-fuzz-replay: \(target.name): \(seed.name)\n".utf8))
    _ = target.run(seed.bytes)
}
print(
    "photomap-fuzz-replay: \(target.name): \(seeds.count) inputs in "
        + String(format: "%.1f s", Date().timeIntervalSince(started)))

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapFuzzTargets

// photomap-fuzz TARGET [libFuzzer options] [CORPUS…]: runs one fuzz target under libFuzzer.
// `scripts/fuzz` is the usual way in; `photomap-fuzz --list` names the targets.

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--list" {
    for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
    exit(0)
}
guard arguments.count >= 2, let target = FuzzTargets.named(arguments[1]) else {
    FileHandle.standardError.write(
        Data("usage: photomap-fuzz TARGET [libFuzzer options] [CORPUS…]; targets: \(FuzzTargets.names)\n".utf8))
    exit(2)
}
exit(LibFuzzer.run(target, arguments: [arguments[0]] + arguments.dropFirst(2)))

import Foundation

// photomap-fuzz TARGET [libFuzzer options] [CORPUS…]: runs one fuzz target under libFuzzer.
// `scripts/fuzz` is the usual way in; `photomap-fuzz --list` names the targets.

let targets: [FuzzTarget] = [
    FlickrAnswersTarget.target, HTMLTarget.target, ImageTarget.target, ArgumentsTarget.target,
    GazetteerTarget.target, LocalSearchTarget.target, ServerRoutesTarget.target, ServerBytesTarget.target,
    ExifTarget.target, LocalPhotoTarget.target, GPXTarget.target,
]

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--list" {
    for target in targets { print("\(target.name)\t\(target.summary)") }
    exit(0)
}
guard arguments.count >= 2, let target = targets.first(where: { $0.name == arguments[1] }) else {
    FileHandle.standardError.write(
        Data(
            "usage: photomap-fuzz TARGET [libFuzzer options] [CORPUS…]; targets: \(targets.map(\.name).joined(separator: ", "))\n"
                .utf8))
    exit(2)
}
exit(LibFuzzer.run(target, arguments: [arguments[0]] + arguments.dropFirst(2)))

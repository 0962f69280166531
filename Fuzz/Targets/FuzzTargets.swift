// SPDX-License-Identifier: Apache-2.0
/// Every fuzz target, in the order `--list` names them: libFuzzer runs them (Fuzz/, `scripts/fuzz`), and
/// `photomap-fuzz-replay` runs their seeds once each under AddressSanitizer (`scripts/sanitize address`).
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        FlickrAnswersTarget.target, HTMLTarget.target, ImageTarget.target, ArgumentsTarget.target,
        GazetteerTarget.target, LocalSearchTarget.target, ServerRoutesTarget.target, ServerBytesTarget.target,
        ExifTarget.target, LocalPhotoTarget.target, GPXTarget.target,
    ]

    /// The target named `name`, or nil.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The names, for a usage message.
    public static var names: String { all.map(\.name).joined(separator: ", ") }
}

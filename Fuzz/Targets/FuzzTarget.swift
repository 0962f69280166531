// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One fuzz target: a parser of outside data, the property it must keep for every input, and the
/// libFuzzer options it needs.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the corpus folder (Fuzz/Corpus/NAME) go by.
    public let name: String
    /// What it feeds and what it checks.
    public let summary: String
    /// libFuzzer options given before the caller's (which win): sizes, memory limits.
    public var options: [String] = []
    /// Made once, before the first input (a sandbox, a server).
    public var prepare: @Sendable () -> Void = {}
    /// Runs one input; false keeps the input out of the corpus (an input the target declines to run).
    public let run: @Sendable ([UInt8]) -> Bool

    init(
        name: String, summary: String, options: [String] = [], prepare: @escaping @Sendable () -> Void = {},
        run: @escaping @Sendable ([UInt8]) -> Bool
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.prepare = prepare
        self.run = run
    }
}

/// A broken property: reported and the process stopped, so libFuzzer saves the input as a crash.
func propertyFailed(_ what: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    FileHandle.standardError.write(Data("\n==photomap-fuzz== property failed (\(file):\(line)): \(what)\n".utf8))
    abort()
}

/// Checks a property of one input.
func require(
    _ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { propertyFailed(what(), file: file, line: line) }
}

/// An input read as lines of text: structured targets take their fields one line at a time.
struct FuzzLines {
    private var lines: ArraySlice<String>

    /// `bytes` split at newlines, each line decoded as UTF-8 (invalid bytes become U+FFFD, as every
    /// String made from outside bytes does); NUL and other control characters stay.
    init(_ bytes: [UInt8]) {
        lines =
            bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }[
                ...]
    }

    /// The next line, or nil past the end.
    mutating func next() -> String? { lines.popFirst() }

    /// The lines left.
    var rest: [String] { Array(lines) }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// photomap's one JSON writer for `Encodable` values: the CLI's `--json` objects, the server's API, the
/// rows and files it keeps (index, catalog, recents, a kept listing's status) and pages' script data
/// (`HTML.scriptJSON`). Keys are sorted, so the same value gives the same bytes (JSONEncoder otherwise
/// follows a dictionary's order, which changes from one run to the next), and slashes are left as they
/// are (`https://…`). What it writes is read back with JSONDecoder; Flickr's answers, thousands of
/// records each, are read by `JSONReader`.
public enum JSONOutput {
    /// `value` as JSON on one line.
    public static func data(_ value: some Encodable) throws -> Data {
        try compact.encode(value)
    }

    /// `value` as JSON on one line, as text.
    public static func text(_ value: some Encodable) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// `value` as indented JSON, a member a line, for a person to read.
    public static func prettyText(_ value: some Encodable) throws -> String {
        String(decoding: try pretty.encode(value), as: UTF8.self)
    }

    // Made once: the index and the catalogs write a row per photo through them. Never changed after, so
    // shared by every thread.
    private static let compact = encoder([.sortedKeys, .withoutEscapingSlashes])
    private static let pretty = encoder([.sortedKeys, .withoutEscapingSlashes, .prettyPrinted])

    private static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return encoder
    }
}

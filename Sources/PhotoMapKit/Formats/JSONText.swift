// SPDX-License-Identifier: Apache-2.0
/// JSON's lexical pieces, written by hand where records stream one by one without an encoder per
/// record: the open formats' `json` and `geojson` (fields in their declared order) and pages' script data
/// (`ScriptJSON`, `HTML.scriptJSON`). Whole `Encodable` values are written by `JSONOutput`.
enum JSONText {
    /// A string literal: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func string(_ value: String) -> String {
        // Most text needs no escape: checking its bytes first is much faster than rebuilding it.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count + 16)
        appendString(value, to: &output, forScript: false)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` to `bytes` as a string literal, escaped as `string` escapes it; `forScript`, also
    /// what `scriptEscape` names, so that no string in a page's script data can close its element.
    static func appendString(_ text: String, to bytes: inout [UInt8], forScript: Bool) {
        func append(_ ascii: StaticString) { ascii.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                if forScript, let (escape, length) = scriptEscape(utf8, at: index) {
                    append(escape)
                    index += length
                    continue
                }
                let byte = utf8[index]
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case ..<0x20:
                    append("\\u00")
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
                index += 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape JSON in a page's `<script>` element needs at `index` of `utf8`, and how many bytes it
    /// replaces: `<`, `>` and `&` (so no string closes the element or opens a comment) and the JavaScript
    /// line separators U+2028 and U+2029 (E2 80 A8 and E2 80 A9); nil where the byte stays as it is.
    static func scriptEscape<Bytes: RandomAccessCollection<UInt8>>(
        _ utf8: Bytes, at index: Int
    ) -> (escape: StaticString, length: Int)? where Bytes.Index == Int {
        switch utf8[index] {
        case UInt8(ascii: "<"): return ("\\u003c", 1)
        case UInt8(ascii: ">"): return ("\\u003e", 1)
        case UInt8(ascii: "&"): return ("\\u0026", 1)
        case 0xE2 where index + 2 < utf8.endIndex && utf8[index + 1] == 0x80:
            switch utf8[index + 2] {
            case 0xA8: return ("\\u2028", 3)
            case 0xA9: return ("\\u2029", 3)
            default: return nil
            }
        default: return nil
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A value: numbers in Swift's shortest round-tripping form, which JSON reads back exactly.
    static func value(_ value: OutputRecord.Value) -> String {
        switch value {
        case let .text(text): string(text)
        case let .integer(number): String(number)
        // Coordinates and distances are finite by construction; JSON has no NaN or infinity.
        case let .number(number): number.isFinite ? String(number) : "null"
        case .null: "null"
        case let .object(fields): object(fields)
        }
    }

    /// An object of `fields`: on one line, or pretty-printed one member a line for an object nested
    /// `depth` levels deep (two spaces a level).
    static func object(_ fields: [OutputRecord.Field], prettyAtDepth depth: Int? = nil) -> String {
        let members = fields.map { string($0.name) + (depth == nil ? ":" : " : ") + value($0.value) }
        guard let depth else { return "{" + members.joined(separator: ",") + "}" }
        let indent = String(repeating: "  ", count: depth)
        return "{\n" + members.map { indent + "  " + $0 }.joined(separator: ",\n") + "\n" + indent + "}"
    }
}

/// JSON's lexical pieces, written by hand so that records stream without an encoder per record.
enum JSONText {
    /// A string literal: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func string(_ value: String) -> String {
        // Most text needs no escape: checking its bytes first is much faster than rebuilding it.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var output: [UInt8] = [UInt8(ascii: "\"")]
        output.reserveCapacity(value.utf8.count + 16)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += "\\\"".utf8
            case UInt8(ascii: "\\"): output += "\\\\".utf8
            case UInt8(ascii: "\n"): output += "\\n".utf8
            case UInt8(ascii: "\r"): output += "\\r".utf8
            case UInt8(ascii: "\t"): output += "\\t".utf8
            case ..<0x20:
                let hex = String(byte, radix: 16)
                output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return String(decoding: output, as: UTF8.self)
    }

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

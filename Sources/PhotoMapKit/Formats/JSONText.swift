/// JSON's lexical pieces, written by hand so that records stream without an encoder per record.
enum JSONText {
    /// A string literal: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func string(_ value: String) -> String {
        var escaped = "\""
        escaped.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// A value: numbers in Swift's shortest round-tripping form, which JSON reads back exactly.
    static func value(_ value: OutputRecord.Value) -> String {
        switch value {
        case let .text(text): string(text)
        case let .integer(number): String(number)
        // Coordinates and distances are finite by construction; JSON has no NaN or infinity.
        case let .number(number): number.isFinite ? String(number) : "null"
        case .null: "null"
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

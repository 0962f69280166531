/// Text for XML 1.0 documents (KML, GPX): markup characters escaped, and characters XML cannot
/// hold at all (most C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD so the document stays well formed.
enum XMLText {
    /// Element content or a double-quoted attribute value. Carriage returns (and, in attributes,
    /// line feeds and tabs) become character references, which parsers keep instead of normalising.
    static func escape(_ value: String, attribute: Bool = false) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\r": escaped += "&#13;"
            case "\n" where attribute: escaped += "&#10;"
            case "\t" where attribute: escaped += "&#9;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `<name>text</name>`, escaped.
    static func element(_ name: String, _ text: String) -> String {
        "<\(name)>\(escape(text))</\(name)>"
    }
}

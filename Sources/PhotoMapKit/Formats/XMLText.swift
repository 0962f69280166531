// SPDX-License-Identifier: Apache-2.0
/// Text for XML 1.0 documents (KML, GPX): markup characters escaped, and characters XML cannot
/// hold at all (most C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD so the document stays well formed.
enum XMLText {
    /// Element content or a double-quoted attribute value. Carriage returns (and, in attributes,
    /// line feeds and tabs) become character references, which parsers keep instead of normalising.
    /// Works on UTF-8 bytes: every byte it changes is ASCII or starts U+FFFE/U+FFFF (EF BF BE/BF).
    static func escape(_ value: String, attribute: Bool = false) -> String {
        // Most text has nothing to escape: checking its bytes first is much faster than rebuilding it.
        if !value.utf8.contains(where: {
            $0 < 0x20 || $0 == 0xEF || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
        }) {
            return value
        }
        let bytes = Array(value.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 32)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "&"): output += "&amp;".utf8
            case UInt8(ascii: "<"): output += "&lt;".utf8
            case UInt8(ascii: ">"): output += "&gt;".utf8
            case UInt8(ascii: "\""): output += "&quot;".utf8
            case UInt8(ascii: "'"): output += "&apos;".utf8
            case UInt8(ascii: "\r"): output += "&#13;".utf8
            case UInt8(ascii: "\n") where attribute: output += "&#10;".utf8
            case UInt8(ascii: "\t") where attribute: output += "&#9;".utf8
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"): output.append(byte)
            case ..<0x20: output += replacement
            case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && bytes[index + 1] >= 0xBE:
                output += replacement
                index += 2
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// U+FFFD REPLACEMENT CHARACTER in UTF-8.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// `<name>text</name>`, escaped.
    static func element(_ name: String, _ text: String) -> String {
        "<\(name)>\(escape(text))</\(name)>"
    }
}

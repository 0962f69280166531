// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The reader's byte-level scanning: strings, numbers and literals as JSON spells them, whitespace,
/// punctuation and nesting depth. What callers read goes through the walking and value functions in
/// JSONReader.swift.
extension JSONReader {
    /// The string at the reader; nil when its content breaks JSON's rules (then it is stepped over).
    package mutating func stringValue() throws -> String? {
        position += 1
        let start = position
        // The common case: no escape, no control character, decoded in one piece.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(
                    validating: UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)]),
                    as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var decoded: [UInt8] = Array(bytes[start..<min(position, bytes.count)])
        var valid = true
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard valid else { return nil }
                return String(validating: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    if let scalar = unicodeEscape() {
                        decoded += Array(String(Character(scalar)).utf8)
                    } else {
                        valid = false
                    }
                default: valid = false
                }
            default:
                if byte < 0x20 { valid = false }
                decoded.append(byte)
            }
        }
        throw failure("a string is not closed")
    }

    /// The scalar of `\uXXXX` (a surrogate pair when it is one) after the reader's `\u`; nil when invalid.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        guard (0xD800...0xDBFF).contains(high)
        else { return (0xDC00...0xDFFF).contains(high) ? nil : Unicode.Scalar(high) }
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
        else { return nil }
        position += 2
        guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    /// The four hex digits after `\u`, stepped over whatever they are (as JSONDecoder's scanner steps
    /// over them, so a quote among them does not close the string); nil when they are not hex.
    private mutating func hexQuad() -> UInt32? {
        guard position + 4 <= bytes.count else {
            position = bytes.count
            return nil
        }
        var value: UInt32? = 0
        for byte in bytes[position..<(position + 4)] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value.map { $0 << 4 | UInt32(byte - UInt8(ascii: "0")) }
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                value = value.map { $0 << 4 | UInt32(byte - UInt8(ascii: "a") + 10) }
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                value = value.map { $0 << 4 | UInt32(byte - UInt8(ascii: "A") + 10) }
            default: value = nil
            }
        }
        position += 4
        return value
    }

    package mutating func skipString() throws {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                // `\u` takes four characters with it, as in `hexQuad`.
                position += position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "u") ? 6 : 2
            default: position += 1
            }
        }
        // An escape cut off by the end stepped past it: the problem is at the end, as `stringValue` says.
        position = bytes.count
        throw failure("a string is not closed")
    }

    /// The number at the reader as text: an integral value as an integer ("100" for 1e2, "1" for 1.0),
    /// any other as Swift prints the Double; nil for a number JSON does not allow ("01", "1.") or one
    /// beyond Double's range. The reader steps over it either way.
    package mutating func numberText() -> String? {
        let start = position
        position = numberEnd()
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self),
            Self.isJSONNumber(text.utf8)
        else { return nil }
        let integral = !text.utf8.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        if integral, let integer = Int64(text) { return String(integer) }
        guard let number = Double(text), number.isFinite else { return nil }
        if number == number.rounded(), let integer = Int64(exactly: number) { return String(integer) }
        return String(number)
    }

    /// Where the run of number characters at the reader ends.
    package func numberEnd() -> Int {
        var end = position
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                end += 1
            default: return end
            }
        }
        return end
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private static func isJSONNumber(_ text: String.UTF8View) -> Bool {
        var bytes = text[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// true, false, or nil for null.
    package mutating func literal() throws -> Bool? {
        if matches("true") {
            position += 4
            return true
        }
        if matches("false") {
            position += 5
            return false
        }
        guard matches("null") else { throw failure("unexpected character") }
        position += 4
        return nil
    }

    package func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + position, word.utf8Start, count) == 0
    }

    // MARK: - Whitespace, punctuation and nesting

    package mutating func skipWhitespace() {
        while position < bytes.count,
            bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09
        {
            position += 1
        }
    }

    /// Consumes `byte` when it is next.
    package mutating func take(_ byte: UInt8) throws -> Bool {
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        guard bytes[position] == byte else { return false }
        position += 1
        return true
    }

    package mutating func valueStart() throws -> Int {
        _ = try nextKind()
        return position
    }

    package mutating func enter(_ opening: UInt8) throws {
        guard try nextKind() != .literal,
            bytes[position] == opening
        else { throw failure("expected '\(Character(Unicode.Scalar(opening)))'") }
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
        position += 1
    }

    package mutating func leave() {
        depth -= 1
    }

    package func failure(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, problem: problem)
    }
}

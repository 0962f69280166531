import Foundation

/// The members of an object a reader looks for: the cases are the keys, by their names (at most 64);
/// the raw values number them from 0, for storing what was read in an array.
protocol JSONMember: RawRepresentable, CaseIterable, Sendable where RawValue == Int {
    /// The cases by the bytes of their keys (`JSONKeyLookup(Self.self)`).
    static var lookup: JSONKeyLookup<Self> { get }
}

/// Finds the member a key names from the key's bytes, by a hash of them: no String per key.
struct JSONKeyLookup<Member: JSONMember>: Sendable {
    private let members: [UInt64: (key: [UInt8], member: Member)]

    init(_: Member.Type) {
        var members: [UInt64: (key: [UInt8], member: Member)] = [:]
        for member in Member.allCases {
            let key = Array(String(describing: member).utf8)
            members[key.withUnsafeBytes(Self.hash)] = (key, member)
        }
        self.members = members
    }

    /// The member whose key is `bytes`; nil for any other key.
    func member(_ bytes: UnsafeRawBufferPointer) -> Member? {
        guard let found = members[Self.hash(bytes)], found.key.count == bytes.count, let key = bytes.baseAddress,
            found.key.withUnsafeBytes({ $0.baseAddress.map { memcmp($0, key, bytes.count) == 0 } ?? false })
        else { return nil }
        return found.member
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

/// An object with a key that breaks JSON's rules (a raw control character, invalid UTF-8): the
/// object was read to its end, but cannot be decoded, as with JSONDecoder.
struct JSONInvalidKey: Error, CustomStringConvertible {
    var description: String { "an object has a key that is not valid text" }
}

/// JSON that is not JSON: where, and what was wrong.
struct JSONSyntaxError: Error, CustomStringConvertible, Equatable {
    /// The byte offset of the problem.
    let offset: Int
    let problem: String

    var description: String { "not valid JSON at byte \(offset): \(problem)" }
}

/// Reads JSON straight from its bytes, for answers of thousands of records: the caller walks objects
/// and arrays and reads only the values it wants, as text, without a Foundation object per value.
///
/// It follows Foundation's JSONDecoder where the two could differ, so answers read as they did:
/// the structure must be JSON (else `JSONSyntaxError`, for the whole answer), but a value that breaks
/// JSON's rules inside a well-formed string or number (an invalid escape or UTF-8, a raw control
/// character, "01", a number beyond Double) is only that value lost; of repeated keys, callers keep the
/// first; nesting deeper than 512 is an error. Lives only inside `read(_:_:)`, over bytes it does not own.
struct JSONReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    private(set) var position = 0
    private var depth = 0

    /// Foundation's JSONDecoder refuses deeper nesting too; this also bounds the reader's recursion.
    static let maximumDepth = 512

    /// The kinds of value, told apart by their first byte.
    enum Kind {
        case object, array, string, number, literal
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `body` with a reader over `data`; then only whitespace may follow what it read.
    static func read<Result>(_ data: Data, _ body: (inout JSONReader) throws -> Result) throws -> Result {
        try data.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer)
            let result = try body(&reader)
            reader.skipWhitespace()
            guard reader.position == buffer.count else { throw reader.failure("unexpected text after the value") }
            return result
        }
    }

    // MARK: - Structure

    /// The kind of the next value.
    mutating func nextKind() throws -> Kind {
        skipWhitespace()
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: throw failure("unexpected character")
        }
    }

    /// Walks the object at the reader: `member` is called with the first occurrence of each key that
    /// names one of `Member`'s cases (JSONDecoder keeps the first of repeated keys), the reader at its
    /// value; other members, and values `member` does not read, are skipped. A key that breaks JSON's
    /// rules makes the object undecodable: it is read to its end, then `JSONInvalidKey` is thrown.
    mutating func readObject<Member: JSONMember>(
        _: Member.Type,
        _ member: (Member, inout JSONReader) throws -> Void
    ) throws {
        var valid = true
        var seen: UInt64 = 0
        try walkObject { reader in
            let found = try reader.key(Member.self)
            try reader.colon()
            guard valid, let found else {
                valid = valid && found != nil
                return try reader.skipValue()
            }
            guard let known = found, seen & 1 << UInt64(known.rawValue) == 0 else { return try reader.skipValue() }
            seen |= 1 << UInt64(known.rawValue)
            let start = try reader.valueStart()
            try member(known, &reader)
            if reader.position == start { try reader.skipValue() }
        }
        guard valid else { throw JSONInvalidKey() }
    }

    /// The key at the reader, looked up among `Member`'s cases: nil when it is not valid text, else
    /// the member it names, if any.
    private mutating func key<Member: JSONMember>(_: Member.Type) throws -> Member?? {
        let start = position + 1
        try skipString()
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)])
        var decoded: [UInt8] = []
        if key.contains(UInt8(ascii: "\\")) {
            // Rare: an escaped key is decoded as any string is.
            position = start - 1
            guard let text = try stringValue() else { return nil }
            decoded = Array(text.utf8)
        } else if !key.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
            guard !key.contains(where: { $0 < 0x20 }), String(validating: key, as: UTF8.self) != nil else { return nil }
        }
        return decoded.isEmpty
            ? .some(Member.lookup.member(key)) : decoded.withUnsafeBytes { .some(Member.lookup.member($0)) }
    }

    /// Walks an object's members; `member` reads the key (at the reader) and its value.
    private mutating func walkObject(_ member: (inout JSONReader) throws -> Void) throws {
        try enter(UInt8(ascii: "{"))
        skipWhitespace()
        if try take(UInt8(ascii: "}")) { return leave() }
        repeat {
            guard try nextKind() == .string else { throw failure("expected a key") }
            try member(&self)
        } while try nextMember(before: UInt8(ascii: "}"))
        guard try take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
        leave()
    }

    /// After a member: whether another follows (a comma, then no `closing`: JSONDecoder allows one
    /// trailing comma).
    private mutating func nextMember(before closing: UInt8) throws -> Bool {
        skipWhitespace()
        guard try take(UInt8(ascii: ",")) else { return false }
        skipWhitespace()
        return position < bytes.count && bytes[position] != closing
    }

    private mutating func colon() throws {
        skipWhitespace()
        guard try take(UInt8(ascii: ":")) else { throw failure("expected ':' after a key") }
    }

    /// Walks the array at the reader: `element` is called with each index, the reader at the element.
    /// An element `element` does not read is skipped.
    mutating func readArray(_ element: (Int, inout JSONReader) throws -> Void) throws {
        try enter(UInt8(ascii: "["))
        skipWhitespace()
        if try take(UInt8(ascii: "]")) { return leave() }
        var index = 0
        repeat {
            let start = try valueStart()
            try element(index, &self)
            if position == start { try skipValue() }
            index += 1
        } while try nextMember(before: UInt8(ascii: "]"))
        guard try take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
        leave()
    }

    /// Steps over the next value, checking its structure.
    mutating func skipValue() throws {
        switch try nextKind() {
        case .object:
            // Keys are stepped over, not decoded: a value nobody reads cannot make anything fail.
            try walkObject { reader in
                try reader.skipString()
                try reader.colon()
                try reader.skipValue()
            }
        case .array: try readArray { _, _ in }
        case .string: try skipString()
        case .number: position = numberEnd()
        case .literal: _ = try literal()
        }
    }

    /// The bytes of the next value, which the reader steps over.
    mutating func valueBytes() throws -> Data {
        let start = try valueStart()
        try skipValue()
        return Data(bytes[start..<position])
    }

    // MARK: - Values

    /// The next value as text whatever its type, as Flickr sends numbers as strings or numbers: a
    /// string's text, a number as Swift prints it (an integer without ".0"), true and false as "1" and "0".
    /// Null, an object, an array or a value that breaks JSON's rules is no text ("").
    mutating func lenientText() throws -> String {
        switch try nextKind() {
        case .string: return try stringValue() ?? ""
        case .number: return numberText() ?? ""
        case .literal: return try literal().map { $0 ? "1" : "0" } ?? ""
        case .object, .array:
            try skipValue()
            return ""
        }
    }

    /// Consumes a null when it is next.
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard matches("null") else { return false }
        position += 4
        return true
    }

    /// The next value's text when it is a valid string, else nil (the value is stepped over).
    mutating func string() throws -> String? {
        guard try nextKind() == .string else {
            try skipValue()
            return nil
        }
        return try stringValue()
    }

    /// The string at the reader; nil when its content breaks JSON's rules (then it is stepped over).
    private mutating func stringValue() throws -> String? {
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

    private mutating func skipString() throws {
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
        throw failure("a string is not closed")
    }

    /// The number at the reader as text: an integral value as an integer ("100" for 1e2, "1" for 1.0),
    /// any other as Swift prints the Double; nil for a number JSON does not allow ("01", "1.") or one
    /// beyond Double's range. The reader steps over it either way.
    private mutating func numberText() -> String? {
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
    private func numberEnd() -> Int {
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
    private mutating func literal() throws -> Bool? {
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

    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + position, word.utf8Start, count) == 0
    }

    // MARK: - Bytes

    private mutating func skipWhitespace() {
        while position < bytes.count,
            bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09
        {
            position += 1
        }
    }

    /// Consumes `byte` when it is next.
    private mutating func take(_ byte: UInt8) throws -> Bool {
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        guard bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func valueStart() throws -> Int {
        _ = try nextKind()
        return position
    }

    private mutating func enter(_ opening: UInt8) throws {
        guard try nextKind() != .literal,
            bytes[position] == opening
        else { throw failure("expected '\(Character(Unicode.Scalar(opening)))'") }
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
        position += 1
    }

    private mutating func leave() {
        depth -= 1
    }

    private func failure(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, problem: problem)
    }
}

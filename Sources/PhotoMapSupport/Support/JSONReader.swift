// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An object with a key that breaks JSON's rules (a raw control character, invalid UTF-8): the
/// object was read to its end, but cannot be decoded, as with JSONDecoder.
package struct JSONInvalidKey: Error, CustomStringConvertible {
    package var description: String { "an object has a key that is not valid text" }
}

/// JSON that is not JSON: where, and what was wrong.
package struct JSONSyntaxError: Error, CustomStringConvertible, Equatable {
    /// The byte offset of the problem.
    package let offset: Int
    package let problem: String

    /// The problem found at byte `offset`.
    package init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    package var description: String { "not valid JSON at byte \(offset): \(problem)" }
}

/// Reads JSON straight from its bytes, for answers of thousands of records: the caller walks objects
/// and arrays and reads only the values it wants, as text, without a Foundation object per value.
/// Flickr's answers are read by it (FlickrAnswers.swift, PhotoInfoAnswer.swift, a kept listing's records),
/// because there it pays: bench/json.sh, a listing of 4,000 photos (4 MB in 16 pages) read into annotated
/// photos, took 144–173 ms of CPU time (medians of 7 rounds), JSONDecoder 1.7–1.9 times that and
/// JSONSerialization 1.5–2.3 times. Everything else photomap reads (its own rows and files, the gazetteer,
/// the embedded catalog's records, but for the ids its index of photos reads) goes through JSONDecoder.
///
/// It follows Foundation's JSONDecoder where the two could differ, so answers read as they did:
/// the structure must be JSON (else `JSONSyntaxError`, for the whole answer), but a value that breaks
/// JSON's rules inside a well-formed string or number (an invalid escape or UTF-8, a raw control
/// character, "01", a number beyond Double) is only that value lost; of repeated keys, callers keep the
/// first; nesting deeper than 512 is an error. Lives only inside `read(_:_:)`, over bytes it does not own.
package struct JSONReader {
    /// The bytes read, which it does not own: valid only inside `read(_:_:)`.
    package let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    package var position = 0
    /// How many objects and arrays the reader is inside.
    package var depth = 0

    /// Foundation's JSONDecoder refuses deeper nesting too; this also bounds the reader's recursion.
    package static let maximumDepth = 512

    /// The kinds of value, told apart by their first byte.
    package enum Kind {
        case object, array, string, number, literal
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `body` with a reader over `data`; then only whitespace may follow what it read.
    package static func read<Result>(_ data: Data, _ body: (inout JSONReader) throws -> Result) throws -> Result {
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
    package mutating func nextKind() throws -> Kind {
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
    package mutating func readObject<Member: JSONMember>(
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
    package mutating func readArray(_ element: (Int, inout JSONReader) throws -> Void) throws {
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
    package mutating func skipValue() throws {
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
    package mutating func valueBytes() throws -> Data {
        let start = try valueStart()
        try skipValue()
        return Data(bytes[start..<position])
    }

    // MARK: - Values

    /// The next value as text whatever its type, as Flickr sends numbers as strings or numbers: a
    /// string's text, a number as Swift prints it (an integer without ".0"), true and false as "1" and "0".
    /// Null, an object, an array or a value that breaks JSON's rules is no text ("").
    package mutating func lenientText() throws -> String {
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
    package mutating func takeNull() -> Bool {
        skipWhitespace()
        guard matches("null") else { return false }
        position += 4
        return true
    }

    /// The next value's text when it is a valid string, else nil (the value is stepped over).
    package mutating func string() throws -> String? {
        guard try nextKind() == .string else {
            try skipValue()
            return nil
        }
        return try stringValue()
    }
}

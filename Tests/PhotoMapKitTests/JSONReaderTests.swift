// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("JSONReader: JSON read from its bytes")
struct JSONReaderTests {
    private enum Field: Int, JSONMember {
        case name, count, tags
        static let lookup = JSONKeyLookup(Field.self)
    }

    /// Reads `bytes` with `body`, as callers do.
    private func read<Result>(_ bytes: [UInt8], _ body: (inout JSONReader) throws -> Result) throws -> Result {
        try JSONReader.read(Data(bytes), body)
    }

    private func read<Result>(_ text: String, _ body: (inout JSONReader) throws -> Result) throws -> Result {
        try read(Array(text.utf8), body)
    }

    /// Each element of the array `text` as `lenientText` reads it.
    private func texts(_ text: String) throws -> [String] {
        var texts: [String] = []
        try read(text) { reader in try reader.readArray { _, reader in texts.append(try reader.lenientText()) } }
        return texts
    }

    @Test("an object's known members reach the caller once each, the first of repeated keys, others skipped")
    func members() throws {
        var seen: [(Field, String)] = []
        let json = #"{"other": {"name": "inner"}, "name": "first", "count": 3, "name": "second", "tags": [1, 2]}"#
        try read(json) { reader in
            try reader.readObject(Field.self) { field, reader in
                // Tags are left unread: the reader steps over them.
                if field != .tags { seen.append((field, try reader.lenientText())) }
            }
        }
        #expect(seen.map(\.0) == [.name, .count])
        #expect(seen.map(\.1) == ["first", "3"])
    }

    @Test("an escaped key is decoded before it is looked up")
    func escapedKey() throws {
        var name: String?
        try read(#"{"n\u0061me": "escaped"}"#) { reader in
            try reader.readObject(Field.self) { _, reader in name = try reader.string() }
        }
        #expect(name == "escaped")
    }

    @Test("a key with a raw control character makes the object undecodable, read to its end")
    func invalidKey() throws {
        var seen: [Field] = []
        let bytes = Array(#"{"count": 1, "bad"#.utf8) + [0x01] + Array(#"": 2, "name": "after"} "#.utf8)
        #expect(throws: JSONInvalidKey.self) {
            try read(bytes) { reader in
                try reader.readObject(Field.self) { field, _ in seen.append(field) }
            }
        }
        #expect(seen == [.count], "members after the bad key are not handed on")
    }

    @Test(
        "a key that is not valid text, escaped or raw, makes the object undecodable",
        arguments: [
            Array(#"{"\ud800": 1, "name": "x"}"#.utf8),  // a lone surrogate, escaped
            Array(#"{"\q": 1}"#.utf8),  // an unknown escape
            [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D],  // {"\xC3(":1}: not UTF-8
        ])
    func invalidKeys(bytes: [UInt8]) {
        #expect(throws: JSONInvalidKey.self) { try read(bytes) { try $0.readObject(Field.self) { _, _ in } } }
    }

    @Test("keys in a value nobody reads are stepped over, not decoded: a bad one there fails nothing")
    func unreadKeys() throws {
        let bytes = Array(#"{"other": {"\ud800": 1}, "name": "kept"}"#.utf8)
        var name: String?
        try read(bytes) { reader in
            try reader.readObject(Field.self) { field, reader in if field == .name { name = try reader.string() } }
        }
        #expect(name == "kept")
    }

    @Test("one trailing comma in an object, as JSONDecoder allows; not two, and not a lone one")
    func trailingComma() throws {
        var seen: [Field] = []
        try read(#"{"name": "a", "count": 2, }"#) { reader in
            try reader.readObject(Field.self) { field, _ in seen.append(field) }
        }
        #expect(seen == [.name, .count])
        #expect(throws: JSONSyntaxError(offset: 13, problem: "unexpected character")) {
            try read(#"{"name": "a",,}"#) { try $0.skipValue() }
        }
        #expect(throws: JSONSyntaxError(offset: 1, problem: "unexpected character")) {
            try read("{,}") { try $0.skipValue() }
        }
    }

    @Test("an object or array asked for where another value is, is a syntax error at that value")
    func wrongKind() {
        #expect(throws: JSONSyntaxError(offset: 1, problem: "expected '{'")) {
            try read(" [1]") { try $0.readObject(Field.self) { _, _ in } }
        }
        #expect(throws: JSONSyntaxError(offset: 0, problem: "expected '['")) {
            try read("true") { try $0.readArray { _, _ in } }
        }
    }

    @Test("numbers sent as strings read as the same text; string() gives nil for anything else, stepped over")
    func numbersAsStrings() throws {
        #expect(try texts(#"["42", 42, "-0.5", -0.5]"#) == ["42", "42", "-0.5", "-0.5"])
        var strings: [String?] = []
        try read(#"[12, "12", null, [1], {"a": 1}, true]"#) { reader in
            try reader.readArray { _, reader in strings.append(try reader.string()) }
        }
        #expect(strings == [nil, "12", nil, nil, nil, nil])
    }

    @Test(
        "strings: every escape, \\u with surrogate pairs, raw UTF-8",
        arguments: [
            (#""plain""#, "plain"),
            (#""q\"b\\s\/n\nr\rt\tb\bf\f""#, "q\"b\\s/n\nr\rt\tb\u{08}f\u{0C}"),
            (#""\u00e9\u00C9""#, "éÉ"),
            (#""\ud83d\ude00 smile""#, "😀 smile"),
            ("\"été 😀\"", "été 😀"),
            (#""""#, ""),
        ])
    func strings(json: String, expected: String) throws {
        #expect(try read(json) { try $0.string() } == expected)
    }

    @Test(
        "a string breaking JSON's rules is only that value lost",
        arguments: [
            Array(#""\x""#.utf8),  // unknown escape
            Array(#""\u12G4""#.utf8),  // not hex
            Array(#""\ud83d""#.utf8),  // lone high surrogate
            Array(#""\ude00""#.utf8),  // lone low surrogate
            Array(#""\ud83d\u0041""#.utf8),  // high surrogate then no low one
            [0x22, 0x61, 0x09, 0x62, 0x22],  // raw tab
            [0x22, 0xFF, 0xFE, 0x22],  // not UTF-8
        ])
    func invalidStrings(bytes: [UInt8]) throws {
        let array = [UInt8(ascii: "[")] + bytes + Array(#", "next"]"#.utf8)
        var values: [String?] = []
        try read(array) { reader in try reader.readArray { _, reader in values.append(try reader.string()) } }
        #expect(values == [nil, "next"])
    }

    @Test("numbers: integral values as integers, others as Swift prints them, JSON's rules kept")
    func numbers() throws {
        #expect(
            try texts("[0, -7, 42, 1e2, 1.0, 2.50, -0.125, 1E-2, 9007199254740993, 123456789012]")
                == ["0", "-7", "42", "100", "1", "2.5", "-0.125", "0.01", "9007199254740993", "123456789012"])
        // "01", "1.", "-" and "1e" break JSON's rules; 1e999 is beyond Double: each is lost alone.
        #expect(try texts("[01, 1., -, 1e, 1e999, 2]") == ["", "", "", "", "", "2"])
    }

    @Test("literals, null, objects and arrays as lenient text")
    func lenient() throws {
        #expect(try texts(#"[true, false, null, {"a": [1]}, [2, 3], "s"]"#) == ["1", "0", "", "", "", "s"])
    }

    @Test("a value's bytes as written, null taken only when next, one trailing comma allowed")
    func valueBytesAndNull() throws {
        var raw: [String] = []
        var nulls: [Bool] = []
        try read(#" [ {"a" : [1, "x"]} , null, 3, ] "#) { reader in
            try reader.readArray { index, reader in
                nulls.append(reader.takeNull())
                if index != 1 { raw.append(String(decoding: try reader.valueBytes(), as: UTF8.self)) }
            }
        }
        #expect(raw == [#"{"a" : [1, "x"]}"#, "3"])
        #expect(nulls == [false, true, false])
    }

    @Test(
        "structure that is not JSON fails with where and what",
        arguments: [
            ("", 0, "unexpected end of the text"),
            ("@", 0, "unexpected character"),
            (#"{"a": 1"#, 7, "unexpected end of the text"),
            ("[1 2]", 3, "expected ',' or ']' in an array"),
            (#"{"a" 1}"#, 5, "expected ':' after a key"),
            (#"{"a": 1 "b": 2}"#, 8, "expected ',' or '}' in an object"),
            ("{1: 2}", 1, "expected a key"),
            (#"["abc"#, 5, "a string is not closed"),
            // An escape cut off by the end: the end is where the problem is, read or stepped over.
            (#"["ab\"#, 5, "a string is not closed"),
            (#"["\u1"#, 5, "a string is not closed"),
            (#"{"k\"#, 4, "a string is not closed"),
            ("[1] x", 4, "unexpected text after the value"),
            ("[,]", 1, "unexpected character"),
            ("[1,,]", 3, "unexpected character"),
            ("[nul]", 1, "unexpected character"),
        ])
    func syntaxErrors(json: String, offset: Int, problem: String) {
        #expect(throws: JSONSyntaxError(offset: offset, problem: problem)) {
            try read(json) { try $0.skipValue() }
        }
    }

    @Test("a string cut off inside an escape fails at the text's end, whether read or stepped over")
    func cutEscape() {
        for json in [#"["ab\"#, #"["\u1"#] {
            #expect(throws: JSONSyntaxError(offset: 5, problem: "a string is not closed")) {
                try read(json) { reader in try reader.readArray { _, reader in _ = try reader.string() } }
            }
        }
        #expect(throws: JSONSyntaxError(offset: 4, problem: "a string is not closed")) {
            try read(#"{"k\"#) { reader in try reader.readObject(Field.self) { _, _ in } }
        }
    }

    @Test("nesting is read to 512 deep and refused past it, even in a value nobody reads")
    func depth() throws {
        let deepest = JSONReader.maximumDepth
        let allowed = String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)
        try read(allowed) { try $0.skipValue() }
        let tooDeep = "{\"a\": " + String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest) + "}"
        #expect(throws: JSONSyntaxError(offset: 6 + deepest - 1, problem: "nested more than 512 deep")) {
            try read(tooDeep) { reader in try reader.readObject(Field.self) { _, _ in } }
        }
    }

    @Test("a long answer reads whole: 10,000 elements and a string of a million bytes")
    func large() throws {
        let elements = (0..<10_000).map(String.init).joined(separator: ",")
        var sum = 0
        try read("[\(elements)]") { reader in
            try reader.readArray { _, reader in sum += Int(try reader.lenientText()) ?? 0 }
        }
        #expect(sum == 9_999 * 10_000 / 2)
        let long = String(repeating: "é", count: 500_000)
        #expect(try read("\"\(long)\"") { try $0.string() } == long)
        #expect(throws: JSONSyntaxError(offset: 1_000_001, problem: "a string is not closed")) {
            try read("\"\(long)") { try $0.skipValue() }
        }
    }
}

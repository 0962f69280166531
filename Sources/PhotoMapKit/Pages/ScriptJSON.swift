// SPDX-License-Identifier: Apache-2.0
/// A page's script data written straight as bytes: the same bytes `HTML.scriptJSON` makes of the
/// `Encodable` form (keys sorted, slashes not escaped; `<`, `>`, `&`, U+2028 and U+2029 escaped so
/// no string can close the script element), without JSONEncoder's containers and boxed values. The
/// encoder and the columns' general machinery were a third of a cold export, most of it for photo
/// pages of one feature. Tests hold both forms to the same bytes.
struct ScriptJSON {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// The text of the bytes written.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Punctuation and keys, as they are: ASCII that needs no escaping.
    mutating func raw(_ ascii: StaticString) {
        ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// An object's member's key: `{"name":` for its first member (`first`, which it clears), else `,"name":`.
    mutating func key(_ name: StaticString, first: inout Bool) {
        raw(first ? "{\"" : ",\"")
        raw(name)
        raw("\":")
        first = false
    }

    /// A JSON string, escaped for JSON and for a script element.
    mutating func string(_ text: String) {
        JSONText.appendString(text, to: &bytes, forScript: true)
    }

    /// A string or null.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// A number as JSONEncoder writes it: the shortest digits that read back the same, "2" for 2.0.
    /// Pages hold finite numbers only (coordinates are checked when made).
    mutating func number(_ value: Double) {
        var digits = value.description
        if digits.hasSuffix(".0") { digits.removeLast(2) }
        bytes.append(contentsOf: digits.utf8)
    }

    /// A number or null.
    mutating func number(_ value: Double?) {
        if let value { number(value) } else { raw("null") }
    }

    /// A whole number.
    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A whole number or null.
    mutating func number(_ value: Int?) {
        if let value { number(value) } else { raw("null") }
    }

    /// An array of `items`, each written by `element`.
    mutating func array<Items: Sequence>(_ items: Items, _ element: (inout ScriptJSON, Items.Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A value through JSONEncoder (`HTML.scriptJSON`): for parts a page has once, like a cluster index.
    mutating func encoded(_ value: some Encodable) throws {
        bytes.append(contentsOf: try HTML.scriptJSON(value).utf8)
    }
}

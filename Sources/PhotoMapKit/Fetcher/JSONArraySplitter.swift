import Foundation

/// Finds the elements of one JSON array as byte ranges, without building objects: the embedded
/// catalog re-pages recorded answers by splicing their records, byte for byte.
enum JSONArraySplitter {
    /// The elements of the array that follows the first `key` (e.g. `"photo":`) in `json`;
    /// nil when there is no such array or it is not closed.
    static func elements(ofArrayAfter key: String, in json: Data) -> [Data]? {
        let bytes = [UInt8](json)
        guard let keyRange = json.range(of: Data(key.utf8)) else { return nil }
        var index = keyRange.upperBound - json.startIndex
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        var elements: [Data] = []
        var depth = 0
        var elementStart: Int?
        var inString = false
        var escaped = false
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    if elementStart == nil { elementStart = index }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if elementStart == nil { elementStart = index }
                    depth += 1
                case UInt8(ascii: "}"):
                    depth -= 1
                case UInt8(ascii: "]") where depth > 0:
                    depth -= 1
                case UInt8(ascii: ","), UInt8(ascii: "]"):
                    guard depth == 0 else { break }
                    // At depth 0 a comma ends an element and "]" ends the array.
                    if let start = elementStart { elements.append(Data(bytes[start..<trimmedEnd(bytes, index)])) }
                    elementStart = nil
                    if byte == UInt8(ascii: "]") { return elements }
                case 0x20, 0x0A, 0x0D, 0x09:
                    break
                default:
                    if elementStart == nil { elementStart = index }
                }
            }
            index += 1
        }
        return nil
    }

    /// `end` moved back over whitespace.
    private static func trimmedEnd(_ bytes: [UInt8], _ end: Int) -> Int {
        var end = end
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        return end
    }
}

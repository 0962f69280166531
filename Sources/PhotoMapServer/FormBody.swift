// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// An `application/x-www-form-urlencoded` body (what a page's form posts), decoded: at most `maximumFields`
/// fields, each name and value valid UTF-8 after percent-decoding; nil for anything else, answered 400.
/// The body is already bounded (`Upload.limit`).
enum FormBody {
    /// Fields one form may have.
    static let maximumFields = 32

    /// The fields of `body` by name, or nil when it is not a form (bad percent escapes, not UTF-8, a repeated
    /// name, too many fields).
    static func parse(_ body: Data) -> [String: String]? {
        var fields: [String: String] = [:]
        let pairs = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= maximumFields else { return nil }
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), !name.isEmpty, fields[name] == nil,
                let value = parts.count > 1 ? decode(parts[1]) : ""
            else { return nil }
            fields[name] = value
        }
        return fields
    }

    /// Whether a Content-Type names a form (its parameters, such as a charset, aside).
    static func isForm(_ contentType: String?) -> Bool {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            == "application/x-www-form-urlencoded"
    }

    private static func decode(_ bytes: Data.SubSequence) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard bytes.distance(from: index, to: bytes.endIndex) >= 3,
                    let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

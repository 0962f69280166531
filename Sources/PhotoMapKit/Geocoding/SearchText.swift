// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Text as search compares it: accents, case and punctuation folded away ("Córdoba" = "cordoba",
/// "St. Louis" = "st louis"), words separated by single spaces.
enum SearchText {
    static func normalized(_ text: String) -> String {
        // Most names are plain ASCII: folding them byte by byte is many times faster than Foundation's
        // folding, which loading the gazetteer's 170,000 names would otherwise wait on.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for byte in text.utf8 {
                let isLetterOrDigit =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A)
                if isLetterOrDigit {
                    if pendingSpace && !bytes.isEmpty { bytes.append(0x20) }
                    pendingSpace = false
                    bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                } else if byte != 0x27 {
                    pendingSpace = true
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        var pendingSpace = false
        for character in folded {
            if character.isLetter || character.isNumber {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else if character != "'" && character != "’" {
                // Apostrophes join ("o'hare" = "ohare"); every other mark separates words.
                pendingSpace = true
            }
        }
        return result
    }

    /// The normalized words of `text`.
    static func words(_ text: String) -> [Substring] {
        normalized(text).split(separator: " ")
    }
}

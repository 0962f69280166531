import Foundation

/// Text as search compares it: accents, case and punctuation folded away ("Córdoba" = "cordoba",
/// "St. Louis" = "st louis"), words separated by single spaces.
enum SearchText {
    static func normalized(_ text: String) -> String {
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

// SPDX-License-Identifier: Apache-2.0
import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in:)` for a whitespace set, which Foundation answers by bridging the text:
    /// a listing trims thousands of fields, nearly all with a visible ASCII character at each end, and
    /// those (no whitespace or newline is one) come back as they are without it.
    package func trimming(_ whitespace: CharacterSet) -> String {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        let visible = 0x21..<0x7F
        if visible.contains(Int(first)), visible.contains(Int(last)) { return String(self) }
        return trimmingCharacters(in: whitespace)
    }
}

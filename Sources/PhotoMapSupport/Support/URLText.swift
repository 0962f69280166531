// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Text as it goes into a URL: a path segment or a query value.
package enum URLText {
    /// RFC 3986's unreserved characters (letters, digits, "-", ".", "_", "~"): the only ones left as they
    /// are, so no "/", "?", "#", "%", "&", "=" or ":" (which would read as a scheme) goes in raw.
    package static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything but unreserved characters percent-encoded.
    package static func percentEncoded(_ text: some StringProtocol) -> String {
        // Encoding fails only for text that is not Unicode, which a Swift string never is.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A person's name on this server, as `photomap users add` takes it and the sign-in form sends it:
/// 1 to 64 ASCII letters, digits, '.', '_' and '-', nothing else. The allow-list keeps every name
/// plain text wherever it goes (a page, a log line, a cookie-less JSON answer), so no quoting rule has
/// to be right for it to be safe.
public struct UserName: Hashable, Sendable, CustomStringConvertible {
    /// The name as given.
    public let text: String

    /// What a name may be, as an error says it.
    public static let rule = "1 to 64 characters, each a letter (a-z, A-Z), a digit, '.', '_' or '-'"

    /// The name `text`, or nil when it is not one (see `rule`).
    public init?(_ text: String) {
        guard (1...64).contains(text.utf8.count),
            text.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            })
        else { return nil }
        self.text = text
    }

    public var description: String { text }
}

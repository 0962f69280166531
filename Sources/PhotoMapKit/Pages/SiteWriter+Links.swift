// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

// Links between the site's files.
extension SiteWriter {
    /// The link from the page at `from` to the file at `to`, both relative to the root; each path
    /// segment is percent-encoded, so a file named "trip #2.html" or "a:b.html" links as a path.
    public static func link(from page: String, to target: String) -> String {
        // The page's folders: its non-empty segments but the last (as `split(separator: "/")` counts).
        var segments = 0
        var previous = UInt8(ascii: "/")
        for byte in page.utf8 {
            if byte != UInt8(ascii: "/") && previous == UInt8(ascii: "/") { segments += 1 }
            previous = byte
        }
        // Nearly every path is plain already (ids and digests): encoded only when a byte needs it.
        let encoded =
            target.utf8.allSatisfy(isPlainPathByte)
            ? target
            : target.split(separator: "/", omittingEmptySubsequences: false)
                .map { URLText.percentEncoded($0) }
                .joined(separator: "/")
        return String(repeating: "../", count: max(segments - 1, 0)) + encoded
    }

    /// Whether a byte stands in a link as it is: a path's slash or an unreserved character.
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// How `photomap serve`'s answers are dressed: the header fields they all carry, the pages' (with their
/// Content-Security-Policy), and a small error page.
extension ServerRoutes {
    /// Header fields every answer carries.
    static let commonHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        // Same-origin, not no-referrer: a form's POST then carries this server's Origin (under no-referrer,
        // browsers send "Origin: null"), and no other site learns which page linked to it.
        ("Referrer-Policy", "same-origin"),
    ]

    /// The pages' header fields: HTML, checked again on each visit, kept by no cache shared with others
    /// (pages may show imported photos, and the recently viewed ones), and their policy.
    static let pageHeaders =
        commonHeaders + [
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "private, no-cache"),
            // frame-ancestors works only in the header, not in the pages' <meta>: no site may frame these.
            (
                "Content-Security-Policy",
                PageRenderer.contentSecurityPolicy(servesAPI: true) + "; frame-ancestors 'none'"
            ),
        ]

    /// A page.
    func page(_ html: String) -> ServerResponse {
        ServerResponse(status: 200, headers: Self.pageHeaders, body: .bytes(Data(html.utf8)))
    }

    /// A small page saying what went wrong; the message is escaped, and is the routes' own words
    /// (never an error's, which may hold a path).
    func errorPage(
        _ status: Int, _ message: String,
        headers: [(name: String, value: String)] = []
    ) -> ServerResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(status) · photomap</title></head>
            <body><h1>\(status)</h1><p>\(HTML.text(message))</p><p><a href="/">Top places</a></p></body></html>

            """
        return ServerResponse(status: status, headers: Self.pageHeaders + headers, body: .bytes(Data(html.utf8)))
    }
}

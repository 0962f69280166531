// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// The sign-in page: the name and password form, or with `?token=` (the owner's one-time link, which
/// only the terminal shows) one "Sign in as the owner" button. Opening it changes nothing: the form's
/// POST signs in.
extension ServerRoutes {
    /// `GET /login` (and the form again, with `message`, after a refused sign-in).
    func signInPage(_ request: ServerRequest, status: Int = 200, message: String? = nil) -> ServerResponse {
        guard services.signIn != nil else { return errorPage(404, "Nothing here.") }
        var cookies: [String] = []
        let csrf = csrfToken(request) ?? newPreSession(request, into: &cookies)
        let alert = message.map { "<p class=\"sign-in-message\" role=\"alert\">\(HTML.text($0))</p>" } ?? ""
        let fields: String
        if request.query["token"] != nil {
            // The form posts to this same address, so the link's token is never written into the page.
            fields = """
                <p>This link signs you in as the catalog's owner, once, within ten minutes of `photomap serve` printing it.</p>
                <input type="hidden" name="csrf" value="\(HTML.text(csrf))">
                <p><button type="submit">Sign in as the owner</button></p>
                """
        } else {
            let next = Self.localPath(request.query["next"]) ?? Self.referringPath(request) ?? "/"
            fields = """
                <p><label for="sign-in-name">Name</label>
                <input id="sign-in-name" name="name" autocomplete="username" required maxlength="64" \
                pattern="[A-Za-z0-9._\\-]+" autocapitalize="none" spellcheck="false"></p>
                <p><label for="sign-in-password">Password</label>
                <input id="sign-in-password" name="password" type="password" autocomplete="current-password" \
                required minlength="\(PasswordHash.minimumLength)" maxlength="\(PasswordHash.maximumLength)"></p>
                <input type="hidden" name="csrf" value="\(HTML.text(csrf))">
                <input type="hidden" name="next" value="\(HTML.text(next))">
                <p><button type="submit">Sign in</button></p>
                """
        }
        let action = request.query["token"] == nil ? " action=\"/login\"" : ""
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in · photomap</title>
            <link rel="stylesheet" href="/assets/photomap.css">
            </head>
            <body data-view="sign-in">
            <header><div class="heading"><a class="back" href="/">‹ Top places</a>\
            <div class="titles"><h1>Sign in</h1></div></div></header>
            <main>
            <form class="sign-in" method="post"\(action)>
            \(alert)\(fields)
            </form>
            </main>
            </body>
            </html>

            """
        let headers =
            Self.pageHeaders.filter { $0.name != "Cache-Control" } + [("Cache-Control", "private, no-store")]
            + cookies.map { ("Set-Cookie", $0) }
        return ServerResponse(status: status, headers: headers, body: .bytes(Data(html.utf8)))
    }

    /// The path of this server's page the visitor came from (its `Referer`, which the pages send to their
    /// own server only), if it was one.
    static func referringPath(_ request: ServerRequest) -> String? {
        guard let referer = request.headers["referer"], let host = request.headers["host"]?.lowercased(),
            let origin = StateChangePolicy.origin(
                ServerRequest(method: "GET", path: "/", headers: ["referer": referer])),
            StateChangePolicy.sameSite(origin, host: host),
            let start = referer.range(of: "://").map({ referer[$0.upperBound...] }),
            let slash = start.firstIndex(of: "/")
        else { return nil }
        let path = String(start[slash...])
        return path.hasPrefix("/login") ? nil : localPath(path)
    }
}

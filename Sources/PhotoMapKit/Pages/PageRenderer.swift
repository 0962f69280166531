// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The HTML of photomap's pages. Every piece of record text passes through `HTML.text` or
/// `HTML.scriptJSON` (or `ScriptJSON`, its bytes written directly); the pages run no inline script and
/// their Content-Security-Policy forbids any.
public enum PageRenderer {
    /// Scripts only from files beside the page; no inline scripts or handlers; images from the page's
    /// folder or OpenStreetMap's tiles; nothing fetched by script, except a served page's calls to its
    /// own server's API (`connect-src 'self'`).
    public static func contentSecurityPolicy(servesAPI: Bool) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https://tile.openstreetmap.org; "
            + "connect-src \(servesAPI ? "'self'" : "'none'"); base-uri 'none'; "
            + "form-action \(servesAPI ? "'self'" : "'none'")"
    }

    /// A served page's "Sign in" link, in its header; `serve` puts `signedIn` in its place for a signed-in
    /// viewer. No record's text can look like it: record text is escaped, and this is a tag.
    public static let signInLink = "<a class=\"account\" href=\"/login\">Sign in</a>"

    /// A page's link to the map of everything (`/map` when served, `map.html` in an export), in its header.
    static func worldMapLink(_ href: String) -> String {
        "<a class=\"world-map\" href=\"\(HTML.text(href))\">World map</a>"
    }

    /// The header's links to the trips and the places you have been; nothing for none.
    static func siteLinks(_ links: [(href: String, label: String)]) -> String {
        guard !links.isEmpty else { return "" }
        let items = links.map { "<a href=\"\(HTML.text($0.href))\">\(HTML.text($0.label))</a>" }.joined()
        return "<nav class=\"site-links\" aria-label=\"Trips and places\">\(items)</nav>"
    }

    /// A signed-in viewer's name and "Sign out" button (a POST with their CSRF token), in a served page's header.
    public static func signedIn(name: String, csrf: String) -> String {
        "<form class=\"account\" method=\"post\" action=\"/logout\"><span class=\"account-name\">"
            + "\(HTML.text(name))</span><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.text(csrf))\">"
            + "<button type=\"submit\">Sign out</button></form>"
    }

    /// Where a page sits and what it links to, all relative to the page.
    public struct Links: Sendable {
        /// The assets folder.
        public var assets: String
        /// The back link and its label, if any.
        public var back: (href: String, label: String)?
        /// Another page worth going to from here (served top places: the recently viewed), and its label.
        public var elsewhere: (href: String, label: String)?
        /// Whether the page may call its server's API: it then has the search box.
        public var servesAPI: Bool
        /// The same page with more of its photos ("Show 100 more"), when its source holds more than it shows.
        public var more: (href: String, label: String)?
        /// Whether the header links the map of everything, and where it is.
        public var linksWorldMap: Bool
        /// The trips and the places you have been, linked from the header where the source has them.
        public var siteLinks: [(href: String, label: String)] = []
        public var worldMap = "/map"

        /// Links for a page.
        public init(
            assets: String, back: (href: String, label: String)? = nil,
            elsewhere: (href: String, label: String)? = nil, servesAPI: Bool = false,
            more: (href: String, label: String)? = nil, linksWorldMap: Bool = false
        ) {
            self.linksWorldMap = linksWorldMap
            self.assets = assets
            self.back = back
            self.elsewhere = elsewhere
            self.servesAPI = servesAPI
            self.more = more
        }
    }

    /// How many entries a list shows at a time. The page holds the first ones as HTML (the list
    /// without script); photomap-list.js shows the others, a page of them at a time, from the page's data.
    public static let listPageSize = 100

    /// A page listing annotations, with a list/map toggle (`defaultView` "list" or "map"), and `after`
    /// (HTML made from escaped text: a trip's days) below them.
    public static func listPage(
        title: String, subtitle: String, data: MapData, links: Links,
        defaultView: String, credits: PageCredits, after: String = ""
    ) throws -> String {
        var list = "<ul class=\"annotations\">\n"
        for feature in data.features.prefix(listPageSize) {
            let properties = feature.properties
            let thumbnail =
                properties.kind == "photo"
                ? "<img src=\"\(HTML.text(properties.thumbnail ?? data.placeholder))\" alt=\"\" width=\"75\" height=\"75\" loading=\"lazy\">"
                : ""
            let count =
                properties.count.map { "<span class=\"count\">\(Quantity.words($0, "photo", "photos"))</span>" }
                ?? ""
            let nogeo = feature.geometry == nil ? " <span class=\"nogeo\">(no location)</span>" : ""
            let text =
                "\(thumbnail)<span class=\"text\"><span class=\"title\">\(HTML.text(properties.title))</span>"
                + "<span class=\"subtitle\">\(HTML.text(properties.subtitle))\(nogeo)</span></span>\(count)"
            let item = properties.link.map { "<a href=\"\(HTML.text($0))\">\(text)</a>" } ?? "<a>\(text)</a>"
            list += "<li>\(item)\(credit(properties).map { "<span class=\"credit\">\($0)</span>" } ?? "")</li>\n"
        }
        list += "</ul>"
        // Which view is shown is said by aria-pressed from the first paint; the page's script keeps it true.
        let toggle = """
            <div class="toggle" role="group" aria-label="View"><button type="button" data-show="list" \
            aria-pressed="\(defaultView == "list")">List</button><button type="button" data-show="map" \
            aria-pressed="\(defaultView == "map")">Map</button></div>
            """
        let main =
            "<section id=\"list\">\n\(list)\n</section>\n<section id=\"map-view\"><div id=\"map\"></div></section>"
            + after
        return try shell(
            title: title, subtitle: subtitle, links: links, headerExtra: toggle, main: main, data: data,
            view: defaultView, credits: credits)
    }

    /// A photo's credit line: its owner, its licence (linked to the deed) and the link back to its page
    /// on Flickr; nil for anything else.
    static func credit(_ properties: MapData.Feature.Properties) -> String? {
        guard properties.kind == "photo" else { return nil }
        var parts: [String] = []
        if let owner = properties.owner { parts.append("by \(HTML.text(owner))") }
        if let license = properties.license {
            parts.append(
                properties.licenseURL.map {
                    "<a href=\"\(HTML.text($0))\" rel=\"license noopener noreferrer\">\(HTML.text(license))</a>"
                } ?? HTML.text(license))
        }
        if let flickr = properties.flickr {
            parts.append("<a class=\"flickr\" href=\"\(HTML.text(flickr))\" rel=\"noopener\">View on Flickr</a>")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// A photo's page: the medium image (linked to the photo's page on Flickr), title, description (safe
    /// HTML), owner, licence, the link to Flickr, date taken (none when unknown), a small map.
    public static func photoPage(
        annotation: Annotation, photo: Photo, image: String?, data: MapData, links: Links,
        credits: PageCredits
    ) throws -> String {
        let flickr = annotation.pageURL.flatMap(HTML.webURL)
        var picture =
            image.map { "<img src=\"\(HTML.text($0))\" alt=\"\(HTML.text(annotation.title))\">" }
            ?? "<img src=\"\(HTML.text(data.placeholder))\" alt=\"\" width=\"240\" height=\"240\">"
        if let flickr { picture = "<a href=\"\(HTML.text(flickr))\" rel=\"noopener\">\(picture)</a>" }
        picture = "<figure>\(picture)</figure>"
        var details = "<dl>"
        if let owner = annotation.owner, !owner.isEmpty { details += "<dt>By</dt><dd>\(HTML.text(owner))</dd>" }
        if let license = annotation.license {
            let name = HTML.text(license.displayName)
            details +=
                "<dt>Licence</dt><dd>"
                + (license.url.flatMap(HTML.webURL).map {
                    "<a href=\"\(HTML.text($0))\" rel=\"license noopener noreferrer\">\(name)</a>"
                } ?? name) + "</dd>"
        }
        if let flickr {
            details +=
                "<dt>On Flickr</dt><dd><a class=\"flickr\" href=\"\(HTML.text(flickr))\" rel=\"noopener\">View on Flickr</a></dd>"
        }
        if let taken = annotation.dateTaken, !taken.isEmpty { details += "<dt>Taken</dt><dd>\(HTML.text(taken))</dd>" }
        if let source = photo.sourceID { details += "<dt>Source id</dt><dd>\(HTML.text(source))</dd>" }
        if !photo.tags.isEmpty { details += "<dt>Tags</dt><dd>\(HTML.text(photo.tags.joined(separator: " ")))</dd>" }
        if let coordinate = annotation.coordinate {
            details +=
                "<dt>Where</dt><dd>\(String(format: "%.6f, %.6f", coordinate.latitude, coordinate.longitude))"
                + (annotation.locationNote.map { " <span class=\"location-note\">(\(HTML.text($0)))</span>" } ?? "")
                + "</dd>"
        }
        details += "</dl>"
        let description = HTML.safeDescription(photo.descriptionHTML)
        let map = annotation.coordinate == nil ? "" : "<div id=\"map\"></div>"
        let main = """
            <article class="photo">\(picture)<div class="details">
            <div class="description">\(description)</div>
            \(details)
            \(map)
            </div></article>
            """
        return try shell(
            title: annotation.title, subtitle: annotation.subtitle, links: links, headerExtra: "",
            main: main,
            data: data, view: "photo", credits: credits)
    }

    /// The page around a body: head with the CSP, styles and scripts, header, footer (the credits, folded
    /// into one line on a narrow screen), data. The scripts are deferred: asked for before the list's
    /// images and run in order once the page is parsed (its data with it), so the list is ready sooner
    /// than with the scripts at the end of the body.
    private static func shell(
        title: String, subtitle: String, links: Links, headerExtra: String, main: String,
        data: MapData, view: String, credits: PageCredits
    ) throws -> String {
        let assets = HTML.text(links.assets)
        let back =
            links.back.map { "<a class=\"back\" href=\"\(HTML.text($0.href))\">‹ \(HTML.text($0.label))</a>" }
            ?? ""
        let elsewhere =
            links.elsewhere.map {
                "<a class=\"elsewhere\" href=\"\(HTML.text($0.href))\">\(HTML.text($0.label)) ›</a>"
            } ?? ""
        let more =
            links.more.map { "<a class=\"more\" href=\"\(HTML.text($0.href))\">\(HTML.text($0.label))</a>" } ?? ""
        // Served pages find places and search photos through the server (photomap-search.js talks to /api/).
        let search =
            links.servesAPI
            ? """
            <form class="search" role="search"><input type="search" name="q" placeholder="Find a place, or search photos in view" \
            aria-label="Find a place, or search photos in view" autocomplete="off"><button type="submit">Search</button>\
            <div class="search-legend" hidden><span class="swatch" hidden></span>\
            <output class="search-status" aria-live="polite"></output>\
            <button type="button" class="search-clear" hidden>Clear</button></div></form>
            """ : ""
        let scripts = PageAssets.scripts.map { "<script src=\"\(assets)/\($0)\" defer></script>" }
            .joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy(servesAPI: links.servesAPI))">
            <meta name="referrer" content="same-origin">
            <title>\(HTML.text(title)) · photomap</title>
            <link rel="stylesheet" href="\(assets)/leaflet.css">
            <link rel="stylesheet" href="\(assets)/photomap.css">
            <link rel="icon" href="\(assets)/favicon.svg" type="image/svg+xml">
            <script src="\(assets)/first-view.js"></script>
            <script src="\(assets)/leaflet.min.js" defer></script>
            \(scripts)
            </head>
            <body data-view="\(HTML.text(view))"\(links.servesAPI ? " data-api=\"/api\"" : "")>
            <header><div class="heading">\(back)<div class="titles"><h1>\(HTML.text(title))</h1>\
            <p class="subtitle">\(HTML.text(subtitle))</p>\(more)</div>\(elsewhere)\(links.linksWorldMap ? worldMapLink(links.worldMap) : "")\(siteLinks(links.siteLinks))\(links.servesAPI ? signInLink : "")</div>\
            \(search)\(headerExtra)</header>
            <main>
            \(main)
            </main>
            <footer><details class="credits"><summary>Credits: photos, places and map</summary>\
            \(credits.lines.map { "<p>\(HTML.text($0))</p>" }.joined())</details></footer>
            <script type="application/json" id="photomap-annotations">\(try data.scriptJSON())</script>
            </body>
            </html>

            """
    }
}

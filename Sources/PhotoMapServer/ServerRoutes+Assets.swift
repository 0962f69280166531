// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `photomap serve`'s `/assets/NAME`: the pages' scripts, styles and basemap, the files `PageAssets`
/// names and nothing else; and `/assets/coasts/LEVEL/X/Y.js`, any coast tile, made when asked for.
extension ServerRoutes {
    /// The asset named `name`, sent from its file as it is.
    func asset(_ name: String) -> ServerResponse {
        guard let file = assetFiles[name] else { return errorPage(404, "No such asset.") }
        guard let (opened, bytes) = OpenFile.reading(file.path) else {
            return errorPage(503, "The asset could not be read.")
        }
        let types = [
            "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
            "png": "image/png",
        ]
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders
                + [
                    ("Content-Type", types[file.pathExtension] ?? "application/octet-stream"),
                    ("Cache-Control", "public, max-age=3600"),
                ],
            body: .open(opened, bytes: bytes))
    }

    /// The coast tile at `path` ("LEVEL/X/Y.js" of `CoastTiles`), made on a worker: cutting a cell of
    /// the world takes a moment the first time.
    func coastTile(_ path: String) -> HTTPServer.Reply {
        let parts =
            path.hasSuffix(".js") ? path.dropLast(3).split(separator: "/", omittingEmptySubsequences: false) : []
        let numbers = parts.compactMap { $0.count <= 5 ? Int($0) : nil }
        guard let coasts = pages.coasts, numbers.count == 3, parts.count == 3 else {
            return .now(errorPage(404, "No such coast tile."))
        }
        return later(failing: "The coast tile could not be made") { [self] in
            guard let script = coasts.script(level: numbers[0], x: numbers[1], y: numbers[2]) else {
                return errorPage(404, "No such coast tile.")
            }
            return ServerResponse(
                status: 200,
                headers: Self.commonHeaders
                    + [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "public, max-age=86400")],
                body: .bytes(Data(script.utf8)))
        }
    }
}

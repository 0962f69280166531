import Foundation

/// `photomap serve`'s `/assets/NAME`: the pages' scripts, styles and basemap, the files `PageAssets`
/// names and nothing else.
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
}

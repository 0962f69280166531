// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport

@testable import PhotoMapKit
@testable import PhotoMapServer

/// `serve`'s routes over the embedded catalog, for the tests that ask `ServerRoutes.handle` directly:
/// caches and the search index in `folder`, places found in `gazetteer`, failures told to `log`, and
/// `adjust` for what else a suite sets (sign-in); requests for 127.0.0.1:8080 are allowed.
func embeddedCatalogRoutes(
    in folder: URL,
    gazetteer: @escaping @Sendable () throws -> any GazetteerLookup = { throw CocoaError(.fileNoSuchFile) },
    log: @escaping @Sendable (String) -> Void = { _ in },
    adjust: (inout ServerRoutes.Services) -> Void = { _ in }
) throws -> ServerRoutes {
    let catalog = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/catalog")
    var services = ServerRoutes.Services(
        source: FixtureSource(catalog: catalog),
        cache: ThumbnailCache(
            cacheDirectory: folder,
            origin: FixtureImageOrigin(folder: catalog.deletingLastPathComponent().appendingPathComponent("images"))
        ),
        assets: try PageAssets.locate(), adapter: AnnotationAdapter(imageHost: .flickr),
        credits: PageCredits([.catalog]), catalogMirror: nil,
        finder: LocationFinder(gazetteer: gazetteer, places: nil),
        search: PhotoSearch(index: SQLiteIndexStore(cacheDirectory: folder), online: nil),
        recents: RecentPhotos(cacheDirectory: folder), log: log)
    adjust(&services)
    let routes = ServerRoutes(services: services)
    routes.allow(address: "127.0.0.1", port: 8080)
    return routes
}

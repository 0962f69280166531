// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// Each viewer's own view: the public one answers anyone not signed in; each role signed in (friend,
/// family, friend+family, owner) has routes of its own, made the first time one asks, whose source,
/// listings, recents, tracks and search are computed from what that role may see. Nothing one view lists
/// or keeps answers another.
extension ServerRoutes {
    /// The routes answering a viewer of `role` (nil: not signed in, the public view).
    func routes(for role: Role?) throws -> ServerRoutes {
        guard let role, let view = services.view else { return self }
        return try views.withLock { views in
            if let made = views[role] { return made }
            let made = ServerRoutes(services: try view(role), viewer: role, sharing: self)
            views[role] = made
            return made
        }
    }

    /// The name of this view, in what browsers keep (a map tile's ETag): a tile kept for one view is
    /// never taken for another's.
    var viewName: String { viewer?.rawValue ?? "public" }

    /// `shared` (the shared index's hits, whose imported photos are as everyone may see them) as this view
    /// sees them: its imported photos searched again in the view's own index, filled from the catalog as
    /// its viewer may see it; the public view's hits as they are.
    func viewed(
        _ shared: [SearchHit], query: String, near: Coordinate?, radius: Double, limit: Int
    ) throws -> [SearchHit] {
        guard let catalog = services.viewCatalog, let store = services.viewIndex else { return shared }
        let index = try store.open()
        let own: [SearchHit]
        if let local = try catalog() {
            try viewIndexing.withLock { _ in
                try CatalogIndexer(index: index).ensureLocal(local, adapter: services.adapter)
            }
            own = try index.search(query, near: near, radiusKilometres: radius, limit: limit)
        } else {
            own = []
        }
        let others = shared.filter { !LocalPhotoID.isValid($0.annotation.id) }
        return Array(
            (others + own).sorted {
                LocalIndex.rank($0.relevance, $0.distanceKilometres, radius)
                    > LocalIndex.rank($1.relevance, $1.distanceKilometres, radius)
            }.prefix(limit))
    }

    /// An imported photo as this view's viewer may see it, read from `catalog` (the shared index holds
    /// only what everyone may see), now known here too; nil for one they may not see, as for an unknown id.
    func viewedPhoto(
        _ id: String, in catalog: @Sendable () throws -> (any LocalCatalogStore)?
    ) throws -> AnnotatedPhoto? {
        guard let photo = try catalog()?.photo(id: id), let entry = services.adapter.annotated([photo]).first else {
            return nil
        }
        known.withLock { $0.photos[id] = entry }
        return entry
    }
}

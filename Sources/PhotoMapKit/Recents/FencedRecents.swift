// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// Recents as a viewer may see them: an imported photo is read again from the catalog as that viewer's
/// view holds it (`LocalCatalogStore.audiences`), so one made private, or fenced, after it was viewed is
/// left out, or shown without its location, at once. Fences take a location off before one is kept.
struct FencedRecents: RecentsStore {
    let store: any RecentsStore
    /// The imported photos' catalog now (read for each listing: a change while a server runs applies at once).
    let catalog: @Sendable () throws -> (any LocalCatalogStore)?
    /// The audiences of the viewer the recents are listed for: anyone's unless set.
    var audiences = Audience.seen(by: nil)
    /// Whether fenced photos are listed with their locations (the owner's view).
    var showsFenced = false

    func photos() throws -> [Photo] {
        let photos = try store.photos()
        guard photos.contains(where: { LocalPhotoID.isValid($0.id) }) else { return photos }
        guard var catalog = try catalog() else { return photos.filter { !LocalPhotoID.isValid($0.id) } }
        catalog.audiences = audiences
        catalog.showsFenced = showsFenced
        return try photos.compactMap { LocalPhotoID.isValid($0.id) ? try catalog.photo(id: $0.id) : $0 }
    }

    func viewed(_ photo: Photo) throws {
        guard LocalPhotoID.isValid(photo.id) else { return try store.viewed(photo) }
        try store.viewed((try catalog()?.fences() ?? []).shown(photo))
    }
}

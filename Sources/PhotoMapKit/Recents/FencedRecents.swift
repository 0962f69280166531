/// Recents as others may see them: an imported photo viewed before a geofence came to hold it is kept
/// with its location, which the fences take off as the photos are read (and before one is kept).
struct FencedRecents: RecentsStore {
    let store: any RecentsStore
    /// The geofences now (read for each listing: a fence added while a server runs applies at once).
    let fences: @Sendable () throws -> [Geofence]

    func photos() throws -> [Photo] {
        let photos = try store.photos()
        guard photos.contains(where: { LocalPhotoID.isValid($0.id) }) else { return photos }
        let fences = try fences()
        return photos.map(fences.shown)
    }

    func viewed(_ photo: Photo) throws {
        try store.viewed(LocalPhotoID.isValid(photo.id) ? try fences().shown(photo) : photo)
    }
}

// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The photos most recently viewed through `photomap serve`, most recent first, at most `capacity`,
/// shared by every server using the same store: a file of the cache folder (`RecentPhotos`) or
/// PostgreSQL (`PostgresRecents`) for servers on several machines.
public protocol RecentsStore: Sendable {
    /// The photos, most recently viewed first.
    func photos() throws -> [Photo]
    /// Puts `photo` first (once), keeping at most `capacity`.
    func viewed(_ photo: Photo) throws
}

extension RecentsStore {
    /// How many are kept.
    public static var capacity: Int { 50 }
}

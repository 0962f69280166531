// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A handle on one request for a square; cancelling it affects only this requester.
public final class ThumbnailRequest: Sendable {
    private static let counter = Atomic<Int>(0)
    let id = ThumbnailRequest.nextID()
    /// The image's cache key; nil when the record names no image.
    let key: String?
    private let cache: ThumbnailCache

    init(cache: ThumbnailCache, key: String?) {
        self.cache = cache
        self.key = key
    }

    /// A number no other request of this process has.
    static func nextID() -> Int { counter.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Stops waiting: this requester gets `.cancelled`; the download continues for the others.
    public func cancel() { cache.cancel(self) }
}

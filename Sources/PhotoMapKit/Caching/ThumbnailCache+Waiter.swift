// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation

extension ThumbnailCache {
    /// What a requester is handed: the entry's path and name, and its bytes when they were in hand (just
    /// stored, or read for the full check).
    struct Delivered: Sendable {
        let path: String
        let name: String
        let bytes: Data?
    }

    /// A requester waiting for an image: where and what to call back with the entry. Without a queue
    /// the callback runs on whichever thread settles the request, so it must be quick (the prefetch tally).
    /// Requesters that will use the image have hits fully decoded; a prefetch, which only makes sure the
    /// files are there, does not.
    struct Waiter: Sendable {
        let queue: DispatchQueue?
        var verifiesHits = true
        let completion: @Sendable (Result<Delivered, ThumbnailError>) -> Void
    }
}

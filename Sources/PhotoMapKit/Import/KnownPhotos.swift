// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The photos an import's workers ask about by content id, each with whether it has a location: those the
/// catalog holds (asked one id at a time, as each file's id becomes known, so that a few files imported
/// into a catalog of millions read a few rows) and those read since.
final class KnownPhotos: @unchecked Sendable {
    // `catalog` and `answers` are reached only while `lock` is held; the importer's own thread leaves the
    // catalog alone while its workers ask (it waits for them).
    private let lock = NSLock()
    private let catalog: any LocalCatalogStore
    /// Whether a photo has a location, by id; nil for an id the catalog does not hold.
    private var answers: [String: Bool?] = [:]

    /// The photos of `catalog`, asked for from now until the workers are done.
    init(_ catalog: any LocalCatalogStore) {
        self.catalog = catalog
    }

    /// Whether the photo `id` has a location, or nil when neither the catalog nor the import holds it (a
    /// catalog that cannot answer holds none, as the file is then read again).
    func located(_ id: String) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        if let answer = answers[id] { return answer }
        let answer = (try? catalog.located(ids: [id]))?[id]
        answers[id] = answer
        return answer
    }

    /// Notes the photo `id` as read now.
    func add(_ id: String, located: Bool) {
        lock.lock()
        defer { lock.unlock() }
        answers[id] = located
    }
}

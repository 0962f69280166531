// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Where Flickr's answers are kept between runs, for a time-to-live, so repeated commands make no
/// request and `--offline` can answer: files in the cache folder (`ResponseCache`) or PostgreSQL shared
/// by several machines (`PostgresAnswers`). Keys never include the API key.
public protocol AnswerStore: Sendable, CustomStringConvertible {
    /// How long an answer counts as fresh.
    var timeToLive: TimeInterval { get }
    /// The stored answer for `key` when younger than the time-to-live (or of any age, `allowStale`).
    func answer(for key: String, allowStale: Bool) -> Data?
    /// Stores `answer` for `key`, whole or not at all.
    func store(_ answer: Data, for key: String) throws
    /// Stores what `merge` makes of `key`'s kept answer (of any age; nil when there is none), with no
    /// other process's `update` of `key` in between, so that two writers merging into one answer (pages
    /// of one listing) lose neither's part; `merge` giving nil keeps what is kept.
    func update(_ key: String, _ merge: (Data?) throws -> Data?) throws
    /// Forgets the answer for `key`.
    func remove(_ key: String)
    /// A token that changes whenever `key`'s answer does; nil when none is kept.
    func version(for key: String) -> String?
    /// Every answer kept.
    func allAnswers() -> [Data]
}

extension AnswerStore {
    /// The places and photos in every answer kept (videos left out, licences named from a kept
    /// flickr.photos.licenses.getInfo answer), for rebuilding the local index.
    public func recordedListings() -> (places: [Place], photos: [Photo]) {
        var places: [Place] = [], photos: [Photo] = [], licenses: [String: License] = [:]
        for data in allAnswers() {
            let json = FlickrSource.unwrappingJSONP(data)
            if case let .read(page)? = try? FlickrAnswer.read(json, key: .photos, part: PhotosAnswer.read).part {
                photos += page.photos.filter(\.isPhoto).map(\.photo).filter { !$0.id.isEmpty }
            } else if case let .read(page)? = try? FlickrAnswer.read(json, key: .places, part: PlacesAnswer.read).part {
                places += page.places
            } else if case let .read(byID)? = try? FlickrAnswer.read(
                json, key: .licenses,
                part: LicensesAnswer.read
            ).part {
                licenses.merge(byID) { first, _ in first }
            }
        }
        for index in photos.indices { photos[index].license = photos[index].license?.named(from: licenses) }
        return (places, photos)
    }
}

import Foundation

/// Flickr's JSON answers kept on disk for a time-to-live, so repeated commands make no request
/// and `--offline` can answer. Keys never include the API key.
public struct ResponseCache: Sendable {
    /// The folder holding the answers (`{cache}/api`).
    public let directory: URL
    /// How long an answer counts as fresh.
    public let timeToLive: TimeInterval

    /// Creates a cache in `directory`.
    public init(directory: URL, timeToLive: TimeInterval) {
        self.directory = directory
        self.timeToLive = timeToLive
    }

    /// The stored answer for `key` when younger than the time-to-live (or of any age, `allowStale`).
    public func answer(for key: String, allowStale: Bool = false) -> Data? {
        let file = fileURL(for: key)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let modified = attributes[.modificationDate] as? Date
        else { return nil }
        guard allowStale || Date().timeIntervalSince(modified) < timeToLive else { return nil }
        return try? Data(contentsOf: file)
    }

    /// Stores `answer` for `key`, whole or not at all (`AtomicFile`).
    public func store(_ answer: Data, for key: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try AtomicFile.write(answer, to: fileURL(for: key))
    }

    /// The places and photos in every answer kept (videos left out, licences named from a kept
    /// flickr.photos.licenses.getInfo answer), for rebuilding the local index.
    public func recordedListings() -> (places: [Place], photos: [Photo]) {
        var places: [Place] = [], photos: [Photo] = [], licenses: [String: License] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "json" {
            guard let data = try? Data(contentsOf: file) else { continue }
            let json = FlickrSource.unwrappingJSONP(data)
            if case let .read(page)? = try? FlickrAnswer.read(json, key: .photos, part: PhotosAnswer.read).part {
                photos += page.photos.filter(\.isPhoto).map(\.photo).filter { !$0.id.isEmpty }
            } else if case let .read(page)? = try? FlickrAnswer.read(json, key: .places, part: PlacesAnswer.read).part {
                places += page.places
            } else if case let .read(byID)? = try? FlickrAnswer.read(json, key: .licenses,
                                                                     part: LicensesAnswer.read).part {
                licenses.merge(byID) { first, _ in first }
            }
        }
        for index in photos.indices { photos[index].license = photos[index].license?.named(from: licenses) }
        return (places, photos)
    }

    /// Forgets the answer for `key`.
    public func remove(_ key: String) {
        try? FileManager.default.removeItem(at: fileURL(for: key))
    }

    /// Names are hashes, so nothing a server sends can shape a path.
    func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(key) + ".json")
    }
}

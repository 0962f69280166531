// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapNetworking
import PhotoMapSupport

/// flickr.photos.search's answers kept as one growing listing per query (its parameters but `page`
/// and `per_page`), in an `AnswerStore`. Any page of any size that the listing holds is answered from
/// it: `photos --limit 5` after `--limit 100` makes no request, and `--offline` answers every listing
/// an earlier run fetched at least as far, whatever page size it used.
///
/// A listing is stored as a flickr.photos.search answer (its records byte for byte, so anything that
/// reads kept answers reads it) plus, under `"listing"`, when each record was fetched (a page is fresh
/// when all its records are) and whether the listing reached its end.
struct ListingCache {
    /// Where the listings are kept.
    let store: any AnswerStore

    /// What a kept listing knows besides its records.
    private struct Status: Codable {
        /// Whether the last record is Flickr's last (a page past it is empty, not missing).
        var complete: Bool
        /// Seconds since 1970 at which each record was fetched, in the records' order.
        var fetched: [Int]
        /// Flickr's count of results for the query.
        var total: Int
    }

    /// The listing last read, by its key and the store's version of it: paging through a
    /// listing asks for page after page of it, and one read of its 4,000 records serves them all.
    private struct Loaded {
        var key: String
        var version: String
        var records: [Data]
        var status: Status
    }

    private static let lastLoaded = Locked<Loaded?>(nil)

    /// The key of the listing a request belongs to: its parameters without the paging.
    static func key(endpoint: String, method: String, parameters: [(key: String, value: String)]) -> String {
        let query = parameters.filter { $0.key != "page" && $0.key != "per_page" }.map { "\($0.key)=\($0.value)" }
        return (["listing", HTTPError.redacted(endpoint), method] + query).joined(separator: "\n")
    }

    /// Page `page` of `perPage` results when the listing holds all of it, fresh (or of any age, `allowStale`);
    /// else why not: `.absent` (no listing, one not fetched that far, or stale), or `.damaged`.
    func answer(page: Int, perPage: Int, key: String, allowStale: Bool, now: Date = Date()) -> Result<Data, KeptMiss> {
        let (records, status): ([Data], Status)
        switch load(key) {
        case let .success(loaded): (records, status) = loaded
        case let .failure(miss): return .failure(miss)
        }
        guard page >= 1, perPage >= 1 else { return .failure(.absent) }
        let start = (page - 1) * perPage, end = min(start + perPage, records.count)
        guard records.count >= start + perPage || status.complete else { return .failure(.absent) }
        if !allowStale {
            // An empty page past the end is as fresh as the listing's end.
            let times = start < end ? status.fetched[start..<end] : status.fetched.suffix(1)
            guard let oldest = times.min(),
                now.timeIntervalSince1970 - Double(oldest) < store.timeToLive
            else { return .failure(.absent) }
        }
        return .success(
            PhotosPage.answer(records, page: page, perPage: perPage, total: max(status.total, records.count)))
    }

    /// Adds a page Flickr sent to the listing: its records replace those at its place, the ones after
    /// it stay unless this page was the last. The listing is read and written back under the store's
    /// lock on the key, so pages kept at once by several processes are all kept.
    func keep(_ answer: Data, page: Int, perPage: Int, key: String, now: Date = Date()) throws {
        guard page >= 1,
            let (fresh, pages, total) = PhotosAnswer.recordBytes(in: FlickrSource.unwrappingJSONP(answer))
        else { return }
        try store.update(key) { kept in
            var (records, status) =
                kept.flatMap(Self.decode) ?? ([], Status(complete: false, fetched: [], total: 0))
            let start = (page - 1) * perPage
            // A page past the listing's end leaves a gap that nothing could fill: keep what is kept.
            guard start <= records.count else { return nil }
            let stamp = Int(now.timeIntervalSince1970)
            let last = fresh.count < perPage || page >= pages ?? Int.max
            let after = last ? records.count : min(start + fresh.count, records.count)
            records = Array(records[..<start]) + fresh + records[after...]
            status.fetched =
                Array(status.fetched[..<start]) + Array(repeating: stamp, count: fresh.count)
                + status.fetched[after...]
            status.complete = last || status.complete
            status.total = total ?? records.count
            return try Self.encode(records, status: status)
        }
    }

    private static let statusKey = Data(#","listing":"#.utf8)

    /// The kept listing; `.absent` when there is none, `.damaged` when it does not read back whole. The
    /// status is read from the file's end, where it was written; the records are kept as bytes, never
    /// decoded here.
    private func load(_ key: String) -> Result<([Data], Status), KeptMiss> {
        guard let version = store.version(for: key) else { return .failure(.absent) }
        if let loaded = Self.lastLoaded.withLock({ $0 }), loaded.key == key, loaded.version == version {
            return .success((loaded.records, loaded.status))
        }
        guard let data = store.answer(for: key, allowStale: true) else { return .failure(.absent) }
        guard let (records, status) = Self.decode(data) else { return .failure(.damaged) }
        Self.lastLoaded.withLock { $0 = Loaded(key: key, version: version, records: records, status: status) }
        return .success((records, status))
    }

    /// A kept listing's records and status, or nil when it does not read back whole.
    private static func decode(_ data: Data) -> ([Data], Status)? {
        guard data.last == UInt8(ascii: "}"),
            let marker = data.range(of: Self.statusKey, options: .backwards),
            let status = try? JSONDecoder().decode(Status.self, from: data[marker.upperBound..<(data.endIndex - 1)]),
            let records = PhotosAnswer.recordBytes(in: data)?.records,
            status.fetched.count == records.count
        else { return nil }
        return (records, status)
    }

    private static func encode(_ records: [Data], status: Status) throws -> Data {
        var data = Data(
            #"{"photos":{"page":1,"pages":1,"perpage":\#(max(records.count, 1)),"total":"\#(status.total)","photo":["#
                .utf8)
        for (index, record) in records.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(record)
        }
        data.append(contentsOf: #"]},"stat":"ok""#.utf8)
        data.append(Self.statusKey)
        data.append(try JSONOutput.data(status))
        data.append(UInt8(ascii: "}"))
        return data
    }
}

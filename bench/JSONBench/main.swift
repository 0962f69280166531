// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

// bench/json.sh: reads the same flickr.photos.search listing (COUNT records copied from the embedded
// catalog's, as Flickr shapes them, in pages of 250) into annotated photos three ways and prints the
// process's CPU time for each, medians of ROUNDS rounds:
//   reader         FlickrSource over the pages, read by JSONReader
//   JSONDecoder    a Codable mirror of the same fields, each lenient (string or number, as Flickr sends)
//   Serialization  JSONSerialization's objects, the same fields taken from them as text
// Each way makes the same Photos and annotates them (AnnotationAdapter). The reader reads its pages on
// several threads: CPU time (not wall time) keeps the three comparable.
// Usage: photomap-bench-json [--count N] [--rounds R]     (prints figures; not a test)

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? fallback
}
let count = max(option("--count", 4_000), 1)
let rounds = max(option("--rounds", 7), 1)
let perPage = FlickrSource.maximumGeoPerPage

guard let catalog = FixtureSource.locateCatalog() else {
    FileHandle.standardError.write(Data("usage: photomap-bench-json (run from the checkout)\n".utf8))
    exit(2)
}

/// The catalog's photo records as JSON objects, copied with new ids until there are `count`.
func listingPages() throws -> [Data] {
    var records: [[String: Any]] = []
    let folder = catalog.appendingPathComponent("photos")
    for place in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
        let file = folder.appendingPathComponent(place).appendingPathComponent("page-1.json")
        let answer = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        records += (answer?["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
    }
    let copies = (0..<count).map { index in
        var record = records[index % records.count]
        record["id"] = String(10_000_000_000 + index)
        // The catalog's few videos would be left out of the reader's listing: every copy is a photo.
        record["media"] = "photo"
        return record
    }
    let pages = stride(from: 0, to: count, by: perPage).map { Array(copies[$0..<min($0 + perPage, count)]) }
    return try pages.enumerated().map { number, photos in
        try JSONSerialization.data(withJSONObject: [
            "photos": [
                "page": number + 1, "pages": pages.count, "perpage": perPage, "total": String(count),
                "photo": photos,
            ] as [String: Any],
            "stat": "ok",
        ])
    }
}

/// Answers flickr.photos.search with the pages made beforehand; any other method fails as Flickr's does.
struct PagesTransport: FlickrTransport {
    let pages: [Data]
    func call(method: String, parameters: [String: String]) throws -> Data {
        guard method == "flickr.photos.search", let page = Int(parameters["page"] ?? "1"),
            pages.indices.contains(page - 1)
        else { return Data(#"{"stat":"fail","code":112,"message":"Method not found"}"#.utf8) }
        return pages[page - 1]
    }
}

/// A value Flickr sends as a string or a number, kept as text.
struct Lenient: Decodable {
    let text: String
    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let text = try? value.decode(String.self) {
            self.text = text
        } else if let number = try? value.decode(Double.self) {
            text = number == number.rounded() ? String(Int64(number)) : String(number)
        } else {
            text = ""
        }
    }
}

/// Flickr's `{"_content": "…"}`.
struct Wrapped: Decodable {
    let _content: String
}

/// The fields photomap reads of a listing's record.
struct Record: Decodable {
    let id: Lenient
    let owner, secret, server, title, ownername, datetaken, datetakenunknown, license, media, tags: Lenient?
    let latitude, longitude, place_id, pathalias: Lenient?
    let url_sq, width_sq, height_sq, url_q, width_q, height_q, url_m, width_m, height_m: Lenient?
    let description: Wrapped?
}

struct Answer: Decodable {
    struct Photos: Decodable {
        let pages, total: Lenient?
        let photo: [Record]
    }
    let photos: Photos
}

/// The Photo a record's fields make, as FlickrSource makes it.
func makePhoto(_ field: (String) -> String?, description: String) -> Photo {
    let sizes: [(PhotoSize, String)] = [(.square, "sq"), (.largeSquare, "q"), (.medium, "m")]
    var images: [PhotoSize: ImageReference] = [:]
    for (size, suffix) in sizes {
        guard let url = field("url_" + suffix) else { continue }
        images[size] = ImageReference(
            url: url, width: field("width_" + suffix).flatMap { Int($0) },
            height: field("height_" + suffix).flatMap { Int($0) })
    }
    return Photo(
        id: field("id") ?? "", owner: field("owner") ?? "", pathAlias: field("pathalias") ?? "",
        secret: field("secret") ?? "", server: field("server") ?? "", title: field("title") ?? "",
        descriptionHTML: description, ownerName: field("ownername") ?? "", dateTaken: field("datetaken"),
        tags: (field("tags") ?? "").split(separator: " ").map(String.init),
        coordinate: Coordinate(
            latitude: field("latitude").flatMap { Double($0) }, longitude: field("longitude").flatMap { Double($0) }),
        placeID: field("place_id") ?? "", images: images, license: field("license").map { License(id: $0) })
}

extension Record {
    var photo: Photo {
        let fields: [String: Lenient?] = [
            "id": id, "owner": owner, "secret": secret, "server": server, "title": title, "ownername": ownername,
            "datetaken": datetaken, "license": license, "tags": tags, "latitude": latitude, "longitude": longitude,
            "place_id": place_id, "pathalias": pathalias, "url_sq": url_sq, "width_sq": width_sq,
            "height_sq": height_sq, "url_q": url_q, "width_q": width_q, "height_q": height_q, "url_m": url_m,
            "width_m": width_m, "height_m": height_m,
        ]
        return makePhoto({ fields[$0]??.text }, description: description?._content ?? "")
    }
}

/// The same fields from JSONSerialization's objects.
func serializationPhotos(_ data: Data) throws -> [Photo] {
    let names = [
        "id", "owner", "secret", "server", "title", "ownername", "datetaken", "datetakenunknown", "license",
        "media", "tags", "latitude", "longitude", "place_id", "pathalias", "url_sq", "width_sq", "height_sq",
        "url_q", "width_q", "height_q", "url_m", "width_m", "height_m",
    ]
    let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let photos = (answer?["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
    return photos.map { record in
        makePhoto(
            { names.contains($0) ? record[$0].map { "\($0)" } : nil },
            description: ((record["description"] as? [String: Any])?["_content"] as? String) ?? "")
    }
}

/// The process's user and system CPU time, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let pages = try listingPages()
let bytes = pages.reduce(0) { $0 + $1.count }
let adapter = AnnotationAdapter()
let source = FlickrSource(transport: PagesTransport(pages: pages), resultCap: count, adapter: adapter)
var times: [String: [Double]] = [:]
for _ in 0..<rounds {
    var start = cpuSeconds()
    let listing = try source.searchPhotos(["place_id": "BENCH"], limit: count)
    times["reader", default: []].append(cpuSeconds() - start)
    precondition(listing.items.count == count, "the reader read \(listing.items.count) of \(count) records")

    start = cpuSeconds()
    let decoded = try pages.reduce(0) {
        $0 + adapter.annotated(try JSONDecoder().decode(Answer.self, from: $1).photos.photo.map(\.photo)).count
    }
    times["JSONDecoder", default: []].append(cpuSeconds() - start)
    precondition(decoded == count)

    start = cpuSeconds()
    let serialized = try pages.reduce(0) { $0 + adapter.annotated(try serializationPhotos($1)).count }
    times["Serialization", default: []].append(cpuSeconds() - start)
    precondition(serialized == count)
}
let reader = median(times["reader"] ?? [])
print("a listing of \(count) photos (\(pages.count) pages, \(bytes / 1024) KB of JSON), CPU time, median of \(rounds):")
for name in ["reader", "JSONDecoder", "Serialization"] {
    let figure = median(times[name] ?? [])
    print(
        "  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(format: "%7.1f ms", figure * 1000))"
            + (name == "reader" ? "" : String(format: "   %.1fx the reader's", figure / reader)))
}

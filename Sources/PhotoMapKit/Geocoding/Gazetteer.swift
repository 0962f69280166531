// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The offline geocoder's names: GeoNames cities over 15,000 people and villages of 1,000 or more
/// (Fixtures/gazetteer, CC BY 4.0),
/// the catalog's places and its landmarks, with the countries and regions that qualify a query
/// ("Portland, Maine"). Matching ignores accents, case and punctuation.
public struct Gazetteer: GazetteerLookup {
    /// Every named point.
    public let entries: [GazetteerEntry]
    /// Normalized name or alternate → (country, admin1 or "") it stands for, for qualifiers.
    let regions: [String: [(country: String, admin1: String)]]
    /// Normalized names of each entry: its name first, then its alternates (same order as `entries`).
    let names: [[String]]

    /// A gazetteer over these entries and regions.
    public init(entries: [GazetteerEntry], regions: [Region]) {
        self.entries = entries
        var regionIndex: [String: [(country: String, admin1: String)]] = [:]
        for region in regions {
            for name in Set(region.names.map(SearchText.normalized)) where !name.isEmpty {
                regionIndex[name, default: []].append((region.country, region.admin1))
            }
        }
        self.regions = regionIndex
        names = entries.map(Self.names(of:))
    }

    /// An entry's normalized names: its name first, then its alternates, each once.
    static func names(of entry: GazetteerEntry) -> [String] {
        var unique: [String] = []
        for name in [entry.name] + entry.alternates {
            let normalized = SearchText.normalized(name)
            if !normalized.isEmpty && !unique.contains(normalized) { unique.append(normalized) }
        }
        return unique
    }

    /// Loads a gazetteer folder (cities.tsv, regions.tsv), a landmarks file and the catalog's places.
    public static func load(gazetteer folder: URL, landmarks landmarksFile: URL, places: [Place]) throws -> Gazetteer {
        var entries: [GazetteerEntry] = []
        let regions = try forEachCity(in: folder, villages: true) { entries.append($0) }
        for landmark in try Landmark.load(landmarksFile) {
            guard let coordinate = Coordinate(latitude: landmark.latitude, longitude: landmark.longitude)
            else { continue }
            let countryCode =
                regions.first {
                    $0.admin1.isEmpty && $0.names.contains(landmark.country ?? "")
                }?.country ?? ""
            // The street is a name too, so a typed address finds the landmark standing there.
            let streets = [
                landmark.street,
                landmark.street.map { "\($0), \(landmark.locality ?? "")" },
            ].compactMap { $0 }
            entries.append(
                GazetteerEntry(
                    kind: .landmark, id: landmark.name, name: landmark.name, alternates: streets,
                    coordinate: coordinate,
                    country: countryCode, street: landmark.street ?? "",
                    locality: landmark.locality ?? "",
                    context: [landmark.locality, landmark.region, landmark.country]
                        .compactMap { $0 }.joined(separator: ", ")))
        }
        entries += places.compactMap(GazetteerEntry.init(place:))
        return Gazetteer(entries: entries, regions: regions)
    }

    /// A row of regions.tsv: its country, its admin1 code ("" for the country itself) and its names, its
    /// own first.
    public typealias Region = (country: String, admin1: String, names: [String])

    /// Reads a gazetteer folder: each city of cities.tsv (and with `villages`, each place of villages.tsv,
    /// GeoNames' places of 1,000 to 14,999 people, when the folder has it), placed in its region and country
    /// by name, is handed to `body` as it is read; the regions of regions.tsv are returned. With `divisions`,
    /// the first-level divisions outside the US of divisions.tsv (their English names) are read too: they
    /// place the cities and are returned after regions.tsv's. `find` and `import` both read the folder
    /// through this (`find` without the divisions, whose names would qualify its queries). Before each file's
    /// places, `reserving` is told how many rows it has, so that a caller keeping them holds no spare room.
    static func forEachCity(
        in folder: URL, villages: Bool = false, divisions: Bool = false, reserving: ((Int) -> Void)? = nil,
        _ body: (GazetteerEntry) -> Void
    ) throws -> [Region] {
        var regions: [Region] = []
        for row in try rows(folder.appendingPathComponent("regions.tsv")) where row.count >= 3 {
            regions.append(
                (
                    row[0], row[1],
                    [row[2]] + (row.count > 3 ? row[3].split(separator: "|").map(String.init) : [])
                ))
        }
        let divisionsFile = folder.appendingPathComponent("divisions.tsv")
        if divisions && FileManager.default.fileExists(atPath: divisionsFile.path) {
            // country, code, name
            for row in try rows(divisionsFile) where row.count >= 3 && !row[1].isEmpty {
                regions.append((row[0], row[1], [row[2]]))
            }
        }
        let regionNames = Dictionary(
            regions.map { ("\($0.country)/\($0.admin1)", $0.names[0]) },
            uniquingKeysWith: { first, _ in first })
        let villagesFile = folder.appendingPathComponent("villages.tsv")
        var files = [folder.appendingPathComponent("cities.tsv")]
        if villages && FileManager.default.fileExists(atPath: villagesFile.path) { files.append(villagesFile) }
        // geonameid, name, latitude, longitude, country, admin1, population[, alternates]
        for (number, file) in files.enumerated() {
            let bytes = try contents(file)
            reserving?(lines(of: bytes).reduce(0) { count, _ in count + 1 })
            for row in rows(of: bytes) where row.count >= 7 {
                guard let latitude = Double(row[2]), let longitude = Double(row[3]),
                    let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                else { continue }
                // A place of no division (Singapore) is in its country alone.
                let context = [
                    row[5].isEmpty ? nil : regionNames["\(row[4])/\(row[5])"],
                    regionNames["\(row[4])/"],
                ].compactMap { $0 }.joined(separator: ", ")
                body(
                    GazetteerEntry(
                        kind: number == 0 ? .city : .village, id: row[0], name: row[1],
                        alternates: row.count > 7 ? row[7].split(separator: "|").map(String.init) : [],
                        coordinate: coordinate,
                        country: row[4], admin1: row[5], population: Int(row[6]) ?? 0,
                        locality: row[1], context: context))
            }
        }
        return regions
    }

    /// A tab-separated file's rows after its header line, each made as it is read (34,000 rows at once
    /// held ~9 MB). Split as bytes: splitting 34,000 lines as Swift Characters took most of `find`'s time.
    static func rows(_ file: URL) throws -> some Sequence<[String]> {
        rows(of: try contents(file))
    }

    /// A gazetteer file's bytes, read straight into an array (through `Data` first, import held the
    /// villages' 5.5 MB twice at its peak).
    static func contents(_ file: URL) throws(LocationError) -> [UInt8] {
        func unreadable(_ code: Int32) -> LocationError {
            .gazetteerUnreadable(path: file.path, reason: String(cString: strerror(code)))
        }
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(errno) }
        var failure: Int32 = 0
        let size = Int(status.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let read = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    failure = read < 0 ? errno : EIO  // shorter than fstat said: changed while read
                    return
                }
                count += read
            }
        }
        guard failure == 0 else { throw unreadable(failure) }
        return bytes
    }

    /// The rows of a tab-separated file's bytes (`rows(_:)`): its lines after the header, split at tabs.
    static func rows(of bytes: [UInt8]) -> some Sequence<[String]> {
        lines(of: bytes).dropFirst().lazy.map { line in
            line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The lines of a file's bytes that are not empty, found as they are read (an array of them held a
    /// third of the file's size again).
    static func lines(of bytes: [UInt8]) -> some Sequence<ArraySlice<UInt8>> {
        sequence(state: 0) { (start: inout Int) -> ArraySlice<UInt8>? in
            while start < bytes.count {
                let end = lineEnd(in: bytes, from: start) ?? bytes.count
                defer { start = end + 1 }
                if end > start { return bytes[start..<end] }
            }
            return nil
        }
    }

    /// The index of the first newline of `bytes` from `start`, found by memchr: a Swift loop over the
    /// villages' 5.5 MB took a debug build 0.3 s.
    static func lineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard start < buffer.count, let base = buffer.baseAddress,
                let found = memchr(base + start, 0x0A, buffer.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// The regions (country, admin1 or "") a qualifier such as "Maine", "TX" or "Argentina" names.
    public func regions(named qualifier: String) -> [(country: String, admin1: String)] {
        regions[SearchText.normalized(qualifier)] ?? []
    }

    /// Every entry: the geocoder scores them all (what the index narrows).
    public func entries(withWordsStarting words: [Substring]) -> [(entry: GazetteerEntry, names: [String])] {
        Array(zip(entries, names))
    }

    /// Every landmark.
    public func landmarks() -> [GazetteerEntry] {
        entries.filter { $0.kind == .landmark }
    }
}

/// A landmark as `Fixtures/catalog/landmarks.json` records it.
struct Landmark: Decodable {
    let name: String
    let street: String?
    let locality: String?
    let region: String?
    let country: String?
    let latitude: Double
    let longitude: Double

    static func load(_ file: URL) throws -> [Landmark] {
        struct File: Decodable { let landmarks: [Landmark] }
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        do {
            return try JSONDecoder().decode(File.self, from: data).landmarks
        } catch {
            throw LocationError.gazetteerUnreadable(path: file.path, reason: DecodingErrorText.describe(error))
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A page's annotations as columns, one array per field, so that 10,000 photos cost a page their
/// values and not 10,000 copies of every key: `{"id": [...], "lat": [...], "lon": [...],
/// "title": column, ...}`. Text columns are `TextColumn`s; a field no entry has is left out.
/// photomap-page.js reads them back into the objects `MapData.Feature.Properties` describes.
struct PageEntries: Encodable {
    let features: [MapData.Feature]

    init(_ features: [MapData.Feature]) {
        self.features = features
    }

    /// A list file of a pre-clustered page (`MapData.ClusterIndex.lists`): `photomapList(n, columns)`, the
    /// columns of the page's entries from `n × listChunk` on, links relative to the page that loads it.
    /// A script, not JSON, so that a page opened from `file://` can load it.
    static func chunkScript(_ number: Int, _ features: [MapData.Feature]) -> String {
        var json = ScriptJSON(capacity: features.count * 160)
        PageEntries(features).write(to: &json)
        return "photomapList(\(number), \(json.text));\n"
    }

    /// The same bytes as `HTML.scriptJSON(self)`, written directly (`ScriptJSON`); keys in sorted order.
    func write(to json: inout ScriptJSON) {
        let ids = features.map(\.properties.id)
        var first = true
        func key(_ name: StaticString) { json.key(name, first: &first) }
        func column(_ name: StaticString, _ values: [String?]) {
            key(name)
            TextColumn(values, ids: ids).write(to: &json)
        }
        func optional(_ name: StaticString, _ path: KeyPath<MapData.Feature.Properties, String?>) {
            let values = features.map { $0.properties[keyPath: path] }
            if values.contains(where: { $0 != nil }) { column(name, values) }
        }
        func coordinates(_ name: StaticString, _ axis: Int) {
            key(name)
            json.array(features) { json, feature in
                json.number(feature.geometry.map { ($0.coordinates[axis] * 1e6).rounded() / 1e6 })
            }
        }
        optional("flickr", \.flickr)
        key("id")
        json.array(ids) { $0.string($1) }
        column("kind", features.map { Optional($0.properties.kind) })
        coordinates("lat", 1)
        optional("license", \.license)
        optional("licenseURL", \.licenseURL)
        optional("link", \.link)
        optional("locationNote", \.locationNote)
        coordinates("lon", 0)
        if features.contains(where: { $0.month != nil }) {
            key("month")
            json.array(features) { $0.number($1.month) }
        }
        optional("owner", \.owner)
        if features.contains(where: { $0.properties.count != nil }) {
            key("photos")
            json.array(features) { $0.number($1.properties.count) }
        }
        column("subtitle", features.map { Optional($0.properties.subtitle) })
        optional("thumbnail", \.thumbnail)
        column("title", features.map { Optional($0.properties.title) })
        json.raw("}")
    }

    func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey {
            case id, lat, lon, month, photos, kind, title, subtitle, thumbnail, link, owner, license, licenseURL, flickr
            case locationNote
        }
        var container = encoder.container(keyedBy: Keys.self)
        let ids = features.map(\.properties.id)
        try container.encode(ids, forKey: .id)
        // A micro-degree is 11 cm: finer digits would only lengthen the page.
        func rounded(_ value: Double?) -> Double? { value.map { ($0 * 1e6).rounded() / 1e6 } }
        try container.encode(features.map { rounded($0.geometry?.coordinates[1]) }, forKey: .lat)
        try container.encode(features.map { rounded($0.geometry?.coordinates[0]) }, forKey: .lon)
        if features.contains(where: { $0.month != nil }) { try container.encode(features.map(\.month), forKey: .month) }
        let counts = features.map(\.properties.count)
        if counts.contains(where: { $0 != nil }) { try container.encode(counts, forKey: .photos) }
        let text: [(Keys, KeyPath<MapData.Feature.Properties, String?>)] = [
            (.thumbnail, \.thumbnail), (.link, \.link), (.owner, \.owner), (.license, \.license),
            (.licenseURL, \.licenseURL), (.flickr, \.flickr), (.locationNote, \.locationNote),
        ]
        try container.encode(TextColumn(features.map { Optional($0.properties.kind) }, ids: ids), forKey: .kind)
        try container.encode(TextColumn(features.map { Optional($0.properties.title) }, ids: ids), forKey: .title)
        try container.encode(TextColumn(features.map { Optional($0.properties.subtitle) }, ids: ids), forKey: .subtitle)
        for (key, path) in text {
            let values = features.map { $0.properties[keyPath: path] }
            if values.contains(where: { $0 != nil }) { try container.encode(TextColumn(values, ids: ids), forKey: key) }
        }
    }
}

/// One text field of every entry, written in as few bytes as plain JSON allows:
/// `{"table": [...], "prefix": "...", "suffix": "...", "rows": [...]}`. A row is
/// - `null`: the entry has no value;
/// - a number `k`: the value is `table[k]` with its NUL character (if any) replaced by the entry's
///   id, so "../photos/\u0000.html" serves every photo's link and "photo" every photo's kind;
/// - a string `s`: the value is `prefix + s + suffix`, the prefix and suffix the rows' strings share
///   ("../squares/" and ".png" around each square's name).
/// Values are only ever split and joined, never interpreted: a page shows exactly the text it was given.
struct TextColumn: Encodable {
    enum Row: Encodable {
        case missing, shared(Int), own(String)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .missing: try container.encodeNil()
            case let .shared(index): try container.encode(index)
            case let .own(text): try container.encode(text)
            }
        }
    }

    static let idMark = "\u{0}"

    private(set) var table: [String] = []
    private(set) var prefix = ""
    private(set) var suffix = ""
    private(set) var rows: [Row] = []

    /// The column of `values`, where `ids[i]` is the id of the entry `values[i]` belongs to.
    init(_ values: [String?], ids: [String]) {
        // One value shares nothing: it is its own row (a photo page's single feature, every field).
        guard values.count > 1 else {
            rows = values.map { $0.map(Row.own) ?? .missing }
            return
        }
        // A value holding the mark itself is never shared: the page would put an id in its place.
        let templates = zip(values, ids).map { value, id in
            value.flatMap { $0.contains(Self.idMark) ? nil : Self.template($0, id: id) }
        }
        var uses: [String: Int] = [:]
        for template in templates { if let template { uses[template, default: 0] += 1 } }
        var shared: [String: Int] = [:]
        var owned: [String] = []
        for (value, template) in zip(values, templates) {
            guard let value else {
                rows.append(.missing)
                continue
            }
            // A template only pays when two entries or more share it.
            if let template, let count = uses[template], count > 1 {
                let index =
                    shared[template]
                    ?? {
                        table.append(template)
                        shared[template] = table.count - 1
                        return table.count - 1
                    }()
                rows.append(.shared(index))
            } else {
                rows.append(.own(value))
                owned.append(value)
            }
        }
        guard owned.count > 1 else { return }
        let start = Self.sharedLength(owned, after: 0, atEnd: false)
        let end = Self.sharedLength(owned, after: start, atEnd: true)
        prefix = String(decoding: owned[0].utf8.prefix(start), as: UTF8.self)
        suffix = String(decoding: owned[0].utf8.suffix(end), as: UTF8.self)
        rows = rows.map { row in
            guard case let .own(value) = row else { return row }
            return .own(String(decoding: value.utf8.dropFirst(start).dropLast(end), as: UTF8.self))
        }
    }

    /// The same bytes as `HTML.scriptJSON(self)`, written directly (`ScriptJSON`).
    func write(to json: inout ScriptJSON) {
        json.raw("{\"prefix\":")
        json.string(prefix)
        json.raw(",\"rows\":")
        json.array(rows) { json, row in
            switch row {
            case .missing: json.raw("null")
            case let .shared(index): json.number(index)
            case let .own(text): json.string(text)
            }
        }
        json.raw(",\"suffix\":")
        json.string(suffix)
        json.raw(",\"table\":")
        json.array(table) { $0.string($1) }
        json.raw("}")
    }

    /// The value (which holds no mark) with the last occurrence of `id` replaced by the id mark; the value
    /// itself when `id` is not in it. Found on the UTF-8 bytes, where a match of a whole string always
    /// starts and ends on whole scalars, so the template gives the value back exactly.
    static func template(_ value: String, id: String) -> String {
        guard !id.isEmpty, !id.contains(idMark) else { return value }
        var value = value, id = id
        return value.withUTF8 { bytes in
            id.withUTF8 { wanted in
                var start = bytes.count - wanted.count
                while start >= 0 {
                    var same = 0
                    while same < wanted.count && bytes[start + same] == wanted[same] { same += 1 }
                    if same == wanted.count {
                        var template = Array(bytes[..<start])
                        template.append(0)
                        template += bytes[(start + wanted.count)...]
                        return String(decoding: template, as: UTF8.self)
                    }
                    start -= 1
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// How many UTF-8 bytes every value starts with (or, `atEnd`, ends with, within what follows its first
    /// `after` bytes), cut back to whole scalars: split there, a value joins back exactly in JavaScript.
    /// (On the bytes: an array of scalars per value was most of a 100,000-photo page's columns.)
    private static func sharedLength(_ values: [String], after skipped: Int, atEnd: Bool) -> Int {
        var reference = values[0]
        return reference.withUTF8 { first in
            var length = first.count - skipped
            for var value in values.dropFirst() where length > 0 {
                value.withUTF8 { bytes in
                    length = min(length, bytes.count - skipped)
                    var same = 0
                    while same < length
                        && (atEnd
                            ? bytes[bytes.count - 1 - same] == first[first.count - 1 - same]
                            : bytes[same] == first[same])
                    { same += 1 }
                    length = same
                }
            }
            // A scalar's continuation bytes (10xxxxxx) stay with its first byte.
            func continues(_ index: Int) -> Bool { index < first.count && first[index] & 0xC0 == 0x80 }
            while length > 0 && continues(atEnd ? first.count - length : length) { length -= 1 }
            return length
        }
    }
}

import Foundation

/// A page's annotations as columns, one array per field, so that 10,000 photos cost a page their
/// values and not 10,000 copies of every key: `{"id": [...], "lat": [...], "lon": [...],
/// "title": column, ...}`. Text columns are `TextColumn`s; a field no entry has is left out.
/// photomap.js reads them back into the objects `MapData.Feature.Properties` describes.
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
        func key(_ name: StaticString) {
            json.raw(first ? "{\"" : ",\"")
            json.raw(name)
            json.raw("\":")
            first = false
        }
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
        coordinates("lon", 0)
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
            case id, lat, lon, photos, kind, title, subtitle, thumbnail, link, owner, license, licenseURL, flickr
        }
        var container = encoder.container(keyedBy: Keys.self)
        let ids = features.map(\.properties.id)
        try container.encode(ids, forKey: .id)
        // A micro-degree is 11 cm: finer digits would only lengthen the page.
        func rounded(_ value: Double?) -> Double? { value.map { ($0 * 1e6).rounded() / 1e6 } }
        try container.encode(features.map { rounded($0.geometry?.coordinates[1]) }, forKey: .lat)
        try container.encode(features.map { rounded($0.geometry?.coordinates[0]) }, forKey: .lon)
        let counts = features.map(\.properties.count)
        if counts.contains(where: { $0 != nil }) { try container.encode(counts, forKey: .photos) }
        let text: [(Keys, KeyPath<MapData.Feature.Properties, String?>)] = [
            (.thumbnail, \.thumbnail), (.link, \.link), (.owner, \.owner), (.license, \.license),
            (.licenseURL, \.licenseURL), (.flickr, \.flickr),
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
            guard let value else { rows.append(.missing); continue }
            // A template only pays when two entries or more share it.
            if let template, let count = uses[template], count > 1 {
                let index = shared[template] ?? {
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
        let start = Self.commonPrefix(owned.map { Array($0.unicodeScalars) })
        let end = Self.commonPrefix(owned.map { Array($0.unicodeScalars.dropFirst(start.count).reversed()) })
        prefix = Self.string(start)
        suffix = Self.string(end.reversed())
        rows = rows.map { row in
            guard case let .own(value) = row else { return row }
            return .own(Self.string(value.unicodeScalars.dropFirst(start.count).dropLast(end.count)))
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

    /// The value (which holds no mark) with the last occurrence of `id` replaced by the id mark, when
    /// that gives the value back exactly, scalar for scalar; else the value itself.
    static func template(_ value: String, id: String) -> String {
        guard !id.isEmpty, !id.contains(idMark),
              let range = value.range(of: id, options: [.literal, .backwards]) else { return value }
        let template = value.replacingCharacters(in: range, with: idMark)
        return template.replacingOccurrences(of: idMark, with: id).unicodeScalars.elementsEqual(value.unicodeScalars)
            ? template : value
    }

    /// The unicode scalars every sequence starts with: split there, a value joins back exactly in JavaScript.
    private static func commonPrefix(_ sequences: [[Unicode.Scalar]]) -> [Unicode.Scalar] {
        guard var length = sequences.first?.count else { return [] }
        for sequence in sequences.dropFirst() where length > 0 {
            length = min(length, sequence.count)
            var same = 0
            while same < length, sequence[same] == sequences[0][same] { same += 1 }
            length = same
        }
        return Array(sequences[0].prefix(length))
    }

    private static func string<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

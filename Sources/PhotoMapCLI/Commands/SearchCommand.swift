import Dispatch
import Foundation
import PhotoMapKit

/// `photomap search QUERY... --near …`: local search; every matching photo, place and landmark around a point.
enum SearchCommand {
    static let spec = CommandSpec(
        name: "search",
        summary: "find photos, places and landmarks matching words around a point (local search)",
        usage: "photomap search QUERY... [--near LAT,LON|NAME] [--radius KM] [--limit N] [--json] [--map [FILE]]",
        discussion: """
        Each QUERY is one search (quote a query of several words); they run in parallel. Every photo, place
        and landmark whose title, description, tags or name holds all the query's words (as words or word
        beginnings, accents ignored) within --radius of --near is listed, by relevance then distance.
        With Flickr as the source: flickr.photos.search with text, lat, lon, radius, has_geo and
        sort=relevance (Flickr needs a radius under 32 km), its results kept within the radius and ranked as
        local ones are; offline or with the embedded catalog: the local index of everything fetched so far
        plus the catalog (see `photomap index`). --map shows every result on one map.
        """,
        options: [
            Locations.nearOption,
            .value("radius", "KM", "the search radius around --near (default 5)"),
            .value("limit", "N", "at most N results per query (default 100)"),
            .flag("json", "print a JSON array of annotations (each with its query and distance) instead of a table"),
            MapOutput.option,
        ],
        acceptsArguments: true)

    /// One query's answer.
    struct Answer {
        let query: String
        var hits: [SearchHit] = []
        var error: (any Error)?
    }

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        let queries = parsed.arguments.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !queries.isEmpty else { throw UsageError("search needs a QUERY, e.g. photomap search bridge --near \"San Francisco\"") }
        let radius = try radius(parsed.value("radius"), flickr: configuration.source == .flickr && !configuration.offline)
        let limit = try PhotosCommand.limit(parsed.value("limit"))
        let locations = Locations(configuration: configuration, console: console)
        let near = try locations.near(parsed)

        let online = configuration.source == .flickr && !configuration.offline
        _ = try locations.index()  // indexes the catalog, once, before the parallel searches open their own connections
        let indexFile = LocalIndex.file(in: configuration.cacheDirectory)
        let results = AnswerBox(count: queries.count)
        // Each query on its own thread, with its own index connection or Flickr transport.
        DispatchQueue.concurrentPerform(iterations: queries.count) { position in
            var answer = Answer(query: queries[position])
            do {
                if online {
                    guard let source = try configuration.makeSource(console: console) as? FlickrSource else {
                        throw CommandFailure("the Flickr source is not available")
                    }
                    // Flickr sorts by date posted unless asked otherwise.
                    var criteria = ["text": answer.query, "has_geo": "1", "sort": "relevance"]
                    if let near {
                        criteria.merge(["lat": String(near.latitude), "lon": String(near.longitude), "radius": String(radius),
                                        "radius_units": "km"]) { $1 }
                    }
                    // The source keeps what it fetched in the local index, which ranks it below.
                    let photos = try source.searchPhotos(criteria, limit: limit).items
                    answer.hits = ranked(photos, query: answer.query, near: near, radius: radius, index: indexFile,
                                         adapter: configuration.adapter)
                } else {
                    answer.hits = try LocalIndex(file: indexFile).search(answer.query, near: near, radiusKilometres: radius, limit: limit)
                }
            } catch {
                answer.error = error
            }
            results.set(position, answer)
        }
        let answers = results.answers
        // What the other queries found is printed before a failed one ends the run.
        try print(answers.filter { $0.error == nil }, near: near, json: parsed.has("json"), console: console)
        if let failure = answers.first(where: { $0.error != nil }), let error = failure.error { throw error }
        if answers.allSatisfy({ $0.hits.isEmpty }) {
            throw CommandFailure("nothing found for \(queries.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        if let file = MapOutput.file(parsed, defaultName: "photomap-search-\(SearchTextSlug.slug(queries.joined(separator: " "))).html") {
            let annotations = answers.flatMap { $0.hits.map(\.annotation) }
            // The local index holds the embedded catalog beside what was fetched.
            let (builder, writer) = try MapOutput.builder(for: file, configuration: configuration, alsoFrom: online ? [] : [.catalog])
            try builder.writeAssets()
            try builder.writeAnnotationsPage(at: file.lastPathComponent, title: queries.joined(separator: ", "),
                                             subtitle: "\(annotations.count) results", annotations: annotations, focus: nil)
            MapOutput.report(file, writer: writer, console: console)
        }
    }

    /// Flickr's results ranked as local ones are: only those within the radius of `near` (Flickr's answers
    /// were seen to hold photos thousands of kilometres out), by relevance over their title, description and
    /// tags, then distance; those the index's words do not find (Flickr matched them otherwise) come last,
    /// nearest first. An index that cannot rank leaves them all in that last order.
    static func ranked(_ photos: [Photo], query: String, near: Coordinate?, radius: Double, index: URL,
                       adapter: AnnotationAdapter) -> [SearchHit] {
        let within: [SearchHit] = photos.compactMap { photo in
            let annotation = adapter.annotation(for: photo)
            guard let coordinate = annotation.coordinate else { return nil }
            let distance = near.map(coordinate.distance) ?? 0
            return distance <= radius || near == nil ? SearchHit(annotation: annotation, relevance: 0, distanceKilometres: distance) : nil
        }
        let byText = (try? LocalIndex(file: index).search(query, near: near, radiusKilometres: radius, limit: within.count,
                                                           photoIDs: within.map(\.annotation.id))) ?? []
        let found = Set(byText.map(\.annotation.id))
        return byText + within.filter { !found.contains($0.annotation.id) }.sorted { $0.distanceKilometres < $1.distanceKilometres }
    }

    private static func print(_ answers: [Answer], near: Coordinate?, json: Bool, console: Console) throws {
        if json {
            let rows = answers.flatMap { answer in answer.hits.map { SearchOutput(hit: $0, query: answer.query, hasCentre: near != nil) } }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return console.print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        }
        for answer in answers {
            console.print("\(answer.query): \(answer.hits.count) result\(answer.hits.count == 1 ? "" : "s")")
            guard !answer.hits.isEmpty else { continue }
            var table = Table(columns: [.init(heading: "KIND"), .init(heading: "TITLE", flexible: true),
                                        .init(heading: "SUBTITLE", flexible: true), .init(heading: "KM", alignRight: true),
                                        .init(heading: "LATITUDE", alignRight: true), .init(heading: "LONGITUDE", alignRight: true)])
            table.rows = answer.hits.map { hit in
                [hit.annotation.kind.rawValue, hit.annotation.title, hit.annotation.subtitle,
                 near == nil ? "" : String(format: "%.1f", hit.distanceKilometres),
                 String(format: "%.4f", hit.annotation.coordinate?.latitude ?? 0), String(format: "%.4f", hit.annotation.coordinate?.longitude ?? 0)]
            }
            table.render(width: console.width).forEach { console.print("  " + $0) }
        }
    }

    /// `--radius`: kilometres above 0; under 32 for Flickr, which refuses larger.
    private static func radius(_ text: String?, flickr: Bool) throws(UsageError) -> Double {
        guard let text else { return 5 }
        guard let value = Double(text), value > 0, value.isFinite else {
            throw UsageError("--radius must be a number of kilometres above 0, not '\(text)'")
        }
        if flickr && value >= 32 { throw UsageError("--radius must be under 32 km for Flickr's photos.search, not \(text)") }
        return value
    }
}

/// A search hit in `--json`: the annotation's fields, plus its query and distance.
private struct SearchOutput: Encodable {
    let hit: SearchHit
    let query: String
    let hasCentre: Bool

    private enum Keys: String, CodingKey { case query, distanceKm }

    func encode(to encoder: any Encoder) throws {
        try hit.annotation.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(query, forKey: .query)
        try container.encode(hasCentre ? (hit.distanceKilometres * 1000).rounded() / 1000 : nil, forKey: .distanceKm)
    }
}

/// The queries' answers, filled from parallel threads.
private final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var stored: [SearchCommand.Answer?]

    init(count: Int) {
        stored = Array(repeating: nil, count: count)
    }

    func set(_ position: Int, _ answer: SearchCommand.Answer) { lock.withLock { stored[position] = answer } }
    var answers: [SearchCommand.Answer] { lock.withLock { stored.compactMap { $0 } } }
}

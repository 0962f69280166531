// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap search QUERY... --near …`: local search; every matching photo, place and landmark around a point.
enum SearchCommand {
    static let spec = CommandSpec(
        name: "search",
        summary: "find photos, places and landmarks matching words around a point (local search)",
        discussion: """
            Each QUERY is one search (quote a query of several words); they run in parallel. Every photo, place
            and landmark whose title, description, tags or name holds all the query's words (as words or word
            beginnings, accents ignored) within --radius of --near is listed, by relevance then distance.
            With Flickr as the source: flickr.photos.search with text, lat, lon, radius, has_geo and
            sort=relevance (Flickr needs a radius under 32 km), its results kept within the radius and ranked as
            local ones are; offline or with the embedded catalog: the local index of everything fetched so far
            plus the catalog (see `photomap index`). --map shows every result on one map.
            """,
        options: [Locations.nearOption.spec, radiusOption.spec, limitOption.spec] + AnnotationOutput.options + [
            MapOutput.option.spec
        ],
        arguments: .words("QUERY..."),
        examples: [
            .init("search bridge --near \"San Francisco\" --radius 10", "photos of bridges within 10 km"),
            .init("search coffee theater --near 40.76,-73.98", "two queries, run in parallel"),
        ])

    /// One query's answer.
    struct Answer: Sendable {
        let query: String
        var hits: [SearchHit] = []
        var error: (any Error)?
    }

    /// What `search` was asked, decoded once.
    struct Options: CommandOptions {
        var queries: [String]
        var near: String?
        /// Kilometres, as `SearchArea` allows them for the source.
        var radius: Double
        var limit: Int
        var destination: AnnotationOutput.Destination
        /// `--map`: the page's file, if asked for.
        var map: URL?

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            queries = parsed.arguments.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !queries.isEmpty else {
                throw UsageError("search needs a QUERY, e.g. photomap search bridge --near \"San Francisco\"")
            }
            let online = global.asksFlickr
            let asked = try parsed.value(radiusOption) ?? SearchArea.defaultRadius
            do {
                radius = try SearchArea.checked(radius: asked, online: online)
            } catch {
                // The value as typed, as the parser's own errors quote it.
                let typed = parsed.text(radiusOption) ?? error.value
                throw UsageError("--radius must be \(error.allowed), not '\(typed)'")
            }
            limit = try parsed.value(limitOption) ?? 0
            destination = try AnnotationOutput.destination(parsed)
            near = try parsed.value(Locations.nearOption)
            let defaultName = "photomap-search-\(SearchTextSlug.slug(queries.joined(separator: " "))).html"
            map = try MapOutput.file(parsed, defaultName: defaultName)
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (queries, radius, limit, destination) = (
            options.queries, options.radius, options.limit, options.destination
        )
        let online = configuration.options.asksFlickr
        let locations = Locations(configuration: configuration, console: console)
        let near = try locations.near(options.near)

        _ = try locations.index()  // indexes the catalog, once, before the parallel searches open their own connections
        let search = try locations.search()
        // Each query on a thread of its own (they wait on SQLite or Flickr), with its own connection.
        let finished = DispatchGroup()
        let found = Locked([Answer?](repeating: nil, count: queries.count))
        for (position, query) in queries.enumerated() {
            finished.enter()
            Thread {
                var answer = Answer(query: query)
                do {
                    answer.hits = try search.search(query, near: near, radius: radius, limit: limit)
                } catch {
                    answer.error = error
                }
                found.withLock { $0[position] = answer }
                finished.leave()
            }.start()
        }
        finished.wait()
        var answers = found.withLock { $0.compactMap { $0 } }
        // Flickr out of reach: the local index answers those queries, after one warning naming the cause.
        if let failure = answers.lazy.compactMap(\.error).first(where: ErrorReport.isNoNetwork) {
            console.warn("no network (\(failure)): answering from the local index")
            let offline = try locations.search(offline: true)
            for index in answers.indices where answers[index].error.map(ErrorReport.isNoNetwork) == true {
                answers[index].error = nil
                answers[index].hits = try offline.search(answers[index].query, near: near, radius: radius, limit: limit)
            }
        }
        // What the other queries found is printed before a failed one ends the run.
        try write(
            answers.filter { $0.error == nil }, near: near, to: destination, configuration: configuration,
            console: console)
        if let failure = answers.first(where: { $0.error != nil }), let error = failure.error { throw error }
        if answers.allSatisfy({ $0.hits.isEmpty }) {
            throw CommandFailure("nothing found for \(queries.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        if let file = options.map {
            let annotations = answers.flatMap { $0.hits.map(\.annotation) }
            // The local index holds the embedded catalog beside what was fetched.
            let (builder, writer) = try MapOutput.builder(
                for: file,
                images: configuration.makeThumbnailCache(console: console),
                configuration: configuration,
                alsoFrom: online ? [] : [.catalog])
            try builder.writeAssets()
            try builder.writeAnnotationsPage(
                at: file.lastPathComponent, title: queries.joined(separator: ", "),
                subtitle: Quantity.words(annotations.count, "result", "results"),
                annotations: annotations,
                focus: nil)
            MapOutput.report(file, writer: writer, console: console)
        }
    }

    /// Every answer's hits as one listing, each with its query and distance; as a table, one per query.
    private static func write(
        _ answers: [Answer], near: Coordinate?, to destination: AnnotationOutput.Destination,
        configuration: Services, console: Console
    ) throws {
        let records = answers.flatMap { answer in
            answer.hits.map { hit in
                OutputRecord(
                    hit.annotation,
                    extras: [
                        .init("query", .text(answer.query)),
                        .init(
                            "distanceKm",
                            near == nil ? .null : .number((hit.distanceKilometres * 1000).rounded() / 1000)),
                    ])
            }
        }
        try AnnotationOutput.write(
            records, to: destination, title: answers.map(\.query).joined(separator: ", "),
            extraFields: ["query", "distanceKm"], configuration: configuration,
            console: console
        ) { width in
            answers.flatMap { answer in
                var lines = ["\(answer.query): \(answer.hits.count) result\(answer.hits.count == 1 ? "" : "s")"]
                guard !answer.hits.isEmpty else { return lines }
                var table = Table(columns: [
                    .init(heading: "KIND"), .init(heading: "TITLE", flexible: true),
                    .init(heading: "SUBTITLE", flexible: true),
                    .init(heading: "KM", alignRight: true),
                    .init(heading: "LATITUDE", alignRight: true),
                    .init(heading: "LONGITUDE", alignRight: true),
                ])
                table.rows = answer.hits.map { hit in
                    [
                        hit.annotation.kind.rawValue, hit.annotation.title, hit.annotation.subtitle,
                        near == nil ? "" : String(format: "%.1f", hit.distanceKilometres),
                        String(format: "%.4f", hit.annotation.coordinate?.latitude ?? 0),
                        String(format: "%.4f", hit.annotation.coordinate?.longitude ?? 0),
                    ]
                }
                lines += table.render(width: width.map { $0 - 2 }).map { "  " + $0 }
                return lines
            }
        }
    }

    /// `--radius KM`: as `SearchArea` allows (under 32 km for Flickr, checked once the source is known).
    static let radiusOption = Option<Double>.number(
        "radius", "KM", SearchArea.radiusKilometres, "the search radius around --near",
        default: "\(Int(SearchArea.defaultRadius))")
    /// `--limit N`.
    static let limitOption = Option<Int>.integer(
        "limit", "N", 1...FixtureSource.maximumResults, "at most N results per query", default: "100")
}

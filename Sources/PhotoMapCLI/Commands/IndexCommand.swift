// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `photomap index rebuild|stats`: the local search index.
enum IndexCommand {
    static let spec = CommandSpec(
        name: "index",
        summary: "rebuild the local search index, or count what it holds",
        discussion: """
            The local index (SQLite with FTS5 and an R*Tree in the cache folder, or PostGIS in the
            --database) holds every place and photo fetched so far and the embedded catalog, for offline
            `photomap search`.
            """,
        options: [],
        arguments: Action.declared,
        examples: [
            .init("index stats", "how many records the search index holds"),
            .init("index rebuild", "the local search index, made anew"),
        ])

    /// What `index` does.
    enum Action: String, CommandAction {
        case rebuild, stats

        var summary: String {
            switch self {
            case .rebuild: "empty it, then index the embedded catalog and the Flickr answers kept in the cache"
            case .stats: "how many records it holds"
            }
        }
    }

    static func run(_ options: ActionOptions<Action>, configuration: Services, console: Console) throws {
        let action = options.action
        let locations = Locations(configuration: configuration, console: console)
        switch action {
        case .rebuild:
            // From nothing: a damaged index would fail to open, let alone empty.
            let index = try locations.index(emptied: true)
            // Flickr's answers kept were fetched: they belong in the index too.
            let fetched = try configuration.state().answers.recordedListings()
            try CatalogIndexer(index: index).add(
                places: configuration.adapter.annotated(fetched.places),
                photos: configuration.adapter.annotated(fetched.photos))
            console.note("indexed \(try index.count()) records in \(try configuration.state().index)")
        case .stats:
            console.print("\(try locations.index().count()) records in \(try configuration.state().index)")
        }
    }
}

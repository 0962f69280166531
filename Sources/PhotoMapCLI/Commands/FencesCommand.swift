// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap fences add|list|remove`: geofences, Flickr's circles within which imported photos are
/// shown without a location to everyone but their owner.
enum FencesCommand {
    static let spec = CommandSpec(
        name: "fences",
        summary: "hide where your imported photos were taken within circles (home, school)",
        discussion: """
            A geofence is a circle of 50 to 10,000 metres. An imported photo inside any fence is shown
            without a location in everything another person can see: export, serve (its pages and every /api answer), --map pages, --format and --json outputs,
            search and find: no coordinate and no place finer than "Without a location", among whose photos
            it is listed; GPS tracks drawn on maps stop 50 m outside every fence.
            `fences add NAME --near LAT,LON|PLACE --radius METRES` adds one, `fences list`
            shows them with how many photos each hides, `fences remove NAME` shows those photos again. They
            are kept with the imported photos (the cache folder's catalog, or the --database, so that every
            server of a fleet honours them). `places` and `photos` show fenced photos where they are with
            --show-fenced, in the terminal only. Export the site again after adding a fence: pages an earlier
            export made that showed a fenced photo are rewritten or removed.
            """,
        options: [nearOption.spec, radiusOption.spec, jsonFlag.spec, dryRunFlag.spec],
        arguments: Action.declared,
        examples: [
            .init("fences add home --near 46.0569,14.5058 --radius 300", "hide the photos within 300 m of home"),
            .init("fences list", "the fences and how many photos each hides"),
            .init("fences remove home", "its photos are shown again"),
        ])

    /// `--radius METRES`: Flickr's range; the parser refuses others with a usage error.
    static let radiusOption = Option<Double>.number(
        "radius", "METRES", Geofence.radii, "the fence's radius in metres, 50 to 10,000 (add)")
    static let nearOption = Option<String>.text(
        "near", "LAT,LON|PLACE", "the fence's centre: a coordinate or a place's name (add)")
    static let jsonFlag = Flag("json", "print the fences as a JSON array (list)")
    static let dryRunFlag = Flag(
        "dry-run", "say how many photos removing the fence would show again, and change nothing (remove)")

    /// `--show-fenced`, on the commands that list imported photos in the terminal.
    static let showFencedOption = Flag(
        "show-fenced", "show the photos your geofences hide at their places (your own view; not with --map)")

    /// What `fences` does.
    enum Action: String, CommandAction {
        case add, list, remove

        var summary: String {
            switch self {
            case .add: "add a fence NAME around --near LAT,LON|PLACE of --radius METRES"
            case .list: "the fences, with how many photos each hides"
            case .remove: "remove the fence NAME; its photos are shown again"
            }
        }

        var argument: String? { self == .list ? nil : "NAME" }
    }

    /// What `fences` was asked, decoded once.
    struct Options: CommandOptions {
        var action: Action
        /// The fence's name (add, remove).
        var name: String
        var near: String?
        var radius: Double?
        var json, dryRun: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            action = try parsed.action(Action.self)
            name = parsed.arguments.dropFirst().first ?? ""
            near = try parsed.value(nearOption)
            radius = try parsed.value(radiusOption)
            (json, dryRun) = (parsed.has(jsonFlag), parsed.has(dryRunFlag))
            if action != .add, near != nil || radius != nil {
                throw UsageError("--\(near != nil ? nearOption.name : radiusOption.name) goes with fences add")
            }
            if json && action != .list { throw UsageError("--json goes with fences list") }
            if dryRun && action != .remove { throw UsageError("--dry-run goes with fences remove") }
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (action, name) = (options.action, options.name)
        switch action {
        case .add:
            let fence = try newFence(name, options, configuration: configuration, console: console)
            let store = try configuration.state().localCatalogForImport()
            do {
                try store.add(fence)
            } catch GeofenceError.duplicate(let name) {
                throw UsageError("a fence named '\(name)' exists already; remove it first or choose another name")
            }
            try reindex(store, configuration: configuration)
            let hidden = try store.fencedCounts()[fence.name] ?? 0
            console.note(
                "fence '\(fence.name)' (\(Quantity.grouped(Int(fence.radius))) m): "
                    + "\(Quantity.groupedWords(hidden, "photo", "photos")) inside "
                    + "\(hidden == 1 ? "is" : "are") shown without a location")
        case .list:
            let store = try configuration.state().fencesStore()
            let fences = try store?.fences() ?? []
            let counts = try store?.fencedCounts() ?? [:]
            if options.json {
                return try console.printJSON(
                    fences.map {
                        Listed(
                            name: $0.name, latitude: $0.centre.latitude, longitude: $0.centre.longitude,
                            radius: $0.radius, photos: counts[$0.name] ?? 0)
                    })
            }
            let rows = fences.map { fence in
                [
                    fence.name, String(format: "%.6f,%.6f", fence.centre.latitude, fence.centre.longitude),
                    "\(Quantity.grouped(Int(fence.radius))) m", Quantity.grouped(counts[fence.name] ?? 0),
                ]
            }
            var table = Table(columns: [
                .init(heading: "NAME", flexible: true), .init(heading: "CENTRE"),
                .init(heading: "RADIUS", alignRight: true), .init(heading: "PHOTOS", alignRight: true),
            ])
            table.rows = rows
            for line in table.render(width: console.width) { console.print(line) }
            console.print(Quantity.groupedWords(fences.count, "fence", "fences"))
        case .remove:
            let store = try configuration.state().localCatalogForImport()
            if options.dryRun { return try console.print(wouldRemove(name, from: store)) }
            try store.removeFence(named: name)
            try reindex(store, configuration: configuration)
            console.note("fence '\(name)' removed; the photos it held are shown where they were taken")
        }
    }

    /// What `fences remove NAME --dry-run` says: how many photos only that fence hides, shown again.
    private static func wouldRemove(_ name: String, from store: any LocalCatalogStore) throws -> String {
        let fences = try store.fences()
        guard let fence = fences.first(where: { $0.name == name }) else { throw GeofenceError.unknown(name: name) }
        let others = fences.filter { $0.name != name }
        let shown = try store.locatedCoordinates().filter { _, coordinate in
            fence.contains(coordinate) && !others.contains { $0.contains(coordinate) }
        }.count
        return "would remove fence '\(name)' and show \(Quantity.groupedWords(shown, "photo", "photos")) again "
            + "where taken; nothing changed (--dry-run)"
    }

    /// The fence `add` asks for, checked: a name, a centre that is a coordinate or a place found.
    private static func newFence(
        _ name: String, _ options: Options, configuration: Services, console: Console
    ) throws -> Geofence {
        guard !name.isEmpty, name.count <= 64,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw UsageError("a fence's name must be 1 to 64 characters without control characters")
        }
        guard let near = options.near else { throw UsageError("fences add needs --near LAT,LON|PLACE") }
        guard let radius = options.radius else { throw UsageError("fences add needs --radius METRES") }
        let centre: Coordinate
        do {
            guard let found = try Locations(configuration: configuration, console: console).near(near) else {
                throw UsageError("fences add needs --near LAT,LON|PLACE")
            }
            centre = found
        } catch let failure as CommandFailure {
            // An unknown place is the user's to correct, as a wrong number is.
            throw UsageError("--near \(near): not a coordinate or a known place (\(failure.description))")
        }
        return Geofence(name: name, centre: centre, radius: radius)
    }

    /// The local index made again without the fenced photos' locations, now rather than at the next search.
    private static func reindex(_ store: any LocalCatalogStore, configuration: Services) throws {
        try CatalogIndexer(index: configuration.state().index.open()).ensureLocal(
            store, adapter: configuration.adapter)
    }

    /// `fences list --json`: one fence.
    private struct Listed: Encodable {
        let name: String
        let latitude, longitude, radius: Double
        let photos: Int
    }
}

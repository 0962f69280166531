// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap visibility PHOTO_ID…|--place ID|--all VISIBILITY [--location AUDIENCE]`: who sees imported
/// photos, and who sees where they were taken, Flickr's way.
enum VisibilityCommand {
    static let spec = CommandSpec(
        name: "visibility",
        summary: "choose who sees your imported photos, and who sees where they were taken",
        discussion: """
            Each imported photo is seen by an audience — public (everyone), friends, family,
            friends+family, or private (only you) — and its location by the same audience or a narrower
            one (--location; a wider one is refused). `serve` shows a photo only to the people its
            audience holds, as `photomap users` made them (friend, family, friend+family; the owner sees
            everything); a photo whose location they may not see is shown to them without a location, as a
            geofence does. `export` writes what everyone may see unless --audience says otherwise. The last
            word is the visibility; before it, photo ids (as `photomap --source local photos --json`
            shows them), or --place ID (every photo of that place, fenced or not), or --all. Photos come in
            with `import --visibility` (private unless told otherwise, or PHOTOMAP_VISIBILITY); photos
            imported before audiences existed are public. The command line is the owner: it lists every
            photo.
            """,
        options: [placeOption.spec, allFlag.spec, locationOption.spec, dryRunFlag.spec, jsonFlag.spec],
        arguments: .words("[PHOTO_ID...] VISIBILITY"),
        examples: [
            .init("visibility --place 3196359 family --location private", "family sees Bled's photos, nobody where"),
            .init("visibility local-0123abcd… public", "one photo for everyone, with its location"),
            .init("visibility --all private --dry-run", "how many photos making everything private would change"),
        ])

    /// `--location AUDIENCE`.
    static let locationOption = Option<Audience>.choice(
        "location", "who sees where the photos were taken: the visibility (the default) or a narrower audience")
    static let placeOption = Option<String>.text(
        "place", "ID", "every photo of this place (an id `photomap --source local places` shows)")
    static let allFlag = Flag("all", "every imported photo")
    static let dryRunFlag = Flag("dry-run", "say which photos would change, and change nothing")
    static let jsonFlag = Flag("json", "print what changed as a JSON object")

    /// What `visibility` was asked, decoded once.
    struct Options: CommandOptions {
        var privacy: PhotoPrivacy
        var selection: PhotoSelection
        var dryRun, json: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            guard let last = parsed.arguments.last else {
                throw UsageError("visibility needs an audience last: \(Audience.names.joined(separator: ", "))")
            }
            guard let visibility = Audience(rawValue: last) else {
                throw UsageError(
                    "the last word must be the visibility, one of \(Audience.names.joined(separator: ", ")); not '\(last)'"
                )
            }
            privacy = try VisibilityCommand.privacy(visibility, location: parsed.value(locationOption))
            selection = try VisibilityCommand.selection(
                ids: Array(parsed.arguments.dropLast()), place: parsed.value(placeOption), all: parsed.has(allFlag))
            (dryRun, json) = (parsed.has(dryRunFlag), parsed.has(jsonFlag))
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (privacy, selection) = (options.privacy, options.selection)
        guard try configuration.state().importedPhotos() != nil else { throw ImportError.nothingImported }
        let store = try configuration.state().localCatalogForImport()
        let found = try store.privacy(of: selection)
        if case let .ids(ids) = selection {
            let known = Set(found.map(\.id))
            if let missing = ids.first(where: { !known.contains($0) }) {
                throw CommandFailure(
                    "no imported photo has the id '\(missing)'; `photomap --source local photos --json` lists them")
            }
        }
        if case let .place(id) = selection, found.isEmpty {
            throw CommandFailure(
                "no imported photo is in place '\(id)'; `photomap --source local places` lists the places")
        }
        let changing = found.filter { $0.privacy != privacy }.map(\.id)
        let dryRun = options.dryRun
        if !dryRun && !changing.isEmpty {
            try store.setPrivacy(privacy, of: changing)
            // The search index follows now, rather than at the next search.
            try CatalogIndexer(index: configuration.state().index.open()).ensureLocal(
                store, adapter: configuration.adapter)
        }
        if options.json {
            return try console.printJSON(
                Changed(
                    visibility: privacy.visibility.rawValue, location: privacy.location.rawValue,
                    photos: found.count, changed: changing, dryRun: dryRun))
        }
        let seen = privacy.location == privacy.visibility ? "" : ", location \(privacy.location.rawValue)"
        let verb = dryRun ? "would change" : "changed"
        console.note(
            "\(Quantity.groupedWords(found.count, "photo", "photos")) \(privacy.visibility.rawValue)\(seen): "
                + "\(Quantity.grouped(changing.count)) \(verb), "
                + "\(Quantity.grouped(found.count - changing.count)) already so"
                + (dryRun ? "; nothing changed (--dry-run)" : ""))
    }

    /// The two audiences, checked: a location never seen by more people than the photo.
    static func privacy(_ visibility: Audience, location: Audience?) throws(UsageError) -> PhotoPrivacy {
        guard let location else {
            return PhotoPrivacy(visibility: visibility)
        }
        guard let privacy = PhotoPrivacy(visibility: visibility, location: location) else {
            throw UsageError(
                "--location \(location.rawValue) is wider than the visibility \(visibility.rawValue): the location "
                    + "is seen by the photo's audience or fewer people; choose \(visibility.rawValue) or narrower")
        }
        return privacy
    }

    /// The photos named: ids, --place or --all, exactly one of them.
    private static func selection(ids: [String], place: String?, all: Bool) throws(UsageError) -> PhotoSelection {
        switch (ids.isEmpty, place, all) {
        case (false, nil, false):
            if let bad = ids.first(where: { !LocalPhotoID.isValid($0) }) {
                throw UsageError("'\(bad)' is not an imported photo's id ('\(LocalPhotoID.prefix)' and hex digits)")
            }
            return .ids(ids)
        case (true, let place?, false):
            guard !place.isEmpty else { throw UsageError("--place needs a place's id") }
            return .place(place)
        case (true, nil, true): return .all
        default:
            throw UsageError("name the photos one way: photo ids, --place ID or --all, then the visibility")
        }
    }

    /// `--json`: what was asked and what changed.
    private struct Changed: Encodable {
        let visibility, location: String
        let photos: Int
        let changed: [String]
        let dryRun: Bool
    }
}

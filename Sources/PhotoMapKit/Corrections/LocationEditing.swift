// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Locations set by hand through `photomap serve` (`POST /api/photos/locations`): the steps of
/// `photomap locate` (`ManualLocation`), over the catalog as its owner sees it, one edit at a time. The
/// last `undoable` edits of each owner are kept in the `EditHistory`, so that an undo puts back exactly what
/// the catalog held, its source included (a client could only say where the photos were, not why).
public final class LocationEditing: Sendable {
    /// Where an edit puts its photos.
    public enum Target: Sendable, Equatable {
        /// At this coordinate.
        case at(Coordinate)
        /// Where this imported photo is.
        case like(String)
        /// Nowhere: the location is removed.
        case clear
    }

    /// What an edit came to.
    public struct Outcome: Sendable {
        /// Every photo named, as the catalog now holds it, in the order named.
        public let photos: [Photo]
        /// The same photos as they were before the edit: what an undo puts back.
        public let before: [Photo]
        /// How many of them changed (the others were there by hand already).
        public let changed: Int
        /// What the sidecars came to; nil when they are not written.
        public let sidecars: SidecarWriter.Report?
        /// The id an undo of this edit names; nil for an edit that changed nothing, and for an undo.
        public let edit: String?
    }

    /// Most photos one edit may name (a place page lists as many as Flickr answers at once).
    public static let maximumPhotos = 500
    /// How many edits of each owner can be undone (as many as the page's undo keeps).
    public static let undoable = 20

    private let catalog: @Sendable () throws -> any LocalCatalogStore
    private let places = Memo<LocalPlaces>()
    private let loadPlaces: @Sendable () throws -> LocalPlaces
    private let sidecars: SidecarWriter?
    private let index: any SearchIndexStore
    private let adapter: AnnotationAdapter
    private let history: any EditHistory
    /// Held for the whole of an edit: two edits at once would each read the catalog's version before the
    /// other's write, and the index would miss one of them.
    private let oneAtATime = NSLock()

    /// Edits of the catalog `catalog` opens for writing, placed among `places` (read once, when first
    /// needed), kept in sidecars by `sidecars` (nil: not written), indexed in `index`, undoable through
    /// `history`.
    public init(
        catalog: @escaping @Sendable () throws -> any LocalCatalogStore,
        places: @escaping @Sendable () throws -> LocalPlaces, sidecars: SidecarWriter?,
        index: any SearchIndexStore, adapter: AnnotationAdapter, history: any EditHistory
    ) {
        self.catalog = catalog
        self.history = history
        loadPlaces = places
        self.sidecars = sidecars
        self.index = index
        self.adapter = adapter
    }

    /// Starts reading the places (the gazetteer: seconds) in the background, once, so that the first edit
    /// does not wait for them: asked when the owner's page asks who is signed in.
    public func prepare() {
        DispatchQueue.global(qos: .utility).async { [places, loadPlaces] in _ = try? places.value(loadPlaces) }
    }

    /// Puts the photos `ids` at `target` for `owner`: all of them, or (an unknown id, a model without a
    /// location, an error) none. Throws `CorrectionError` for what the caller named wrong.
    public func apply(_ ids: [String], to target: Target, by owner: String) throws -> Outcome {
        oneAtATime.lock()
        defer { oneAtATime.unlock() }
        let catalog = try ownersCatalog()
        let before = try ManualLocation.photos(ids, in: catalog)
        let coordinate: Coordinate? =
            switch target {
            case let .at(coordinate): coordinate
            case let .like(model): try ManualLocation.location(of: model, in: catalog)
            case .clear: nil
            }
        let located = try ManualLocation.located(before, at: coordinate) { [places, loadPlaces] in
            try places.value(loadPlaces)
        }
        let written = try ManualLocation.write(
            located, into: catalog, sidecars: sidecars, index: { [index] in try index.open() }, adapter: adapter)
        let photos = try ManualLocation.photos(ids, in: catalog)
        let edit = written.changed.isEmpty ? nil : try history.keep(by: owner, before: before, after: photos)
        return Outcome(
            photos: photos, before: before, changed: written.changed.count, sidecars: written.sidecars, edit: edit)
    }

    /// Takes back the edit `id` that `owner` made: each of its photos as the catalog held it before, its
    /// location's source and place included (in the sidecars too: one back to its own GPS loses what
    /// photomap wrote there). Throws `CorrectionError.unknownEdit` for an edit not kept,
    /// `.changedSince` when a photo is no longer as the edit left it, and nothing changes.
    public func undo(_ id: String, by owner: String) throws -> Outcome {
        oneAtATime.lock()
        defer { oneAtATime.unlock() }
        let undone = try history.take(id, by: owner) { edit in
            let catalog = try ownersCatalog()
            let ids = edit.before.map(\.id)
            let now = try ManualLocation.photos(ids, in: catalog)
            let left = Dictionary(edit.after.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let changed = now.filter { photo in
                left[photo.id].map { $0.coordinate != photo.coordinate || $0.locationSource != photo.locationSource }
                    ?? true
            }
            guard changed.isEmpty else { throw CorrectionError.changedSince(changed.map(\.id)) }
            let restored = try ManualLocation.restored(edit.before, from: now) { [places, loadPlaces] in
                try places.value(loadPlaces)
            }
            let written = try ManualLocation.write(
                restored, into: catalog, sidecars: sidecars, index: { [index] in try index.open() }, adapter: adapter)
            return Outcome(
                photos: try ManualLocation.photos(ids, in: catalog), before: now, changed: written.changed.count,
                sidecars: written.sidecars, edit: nil)
        }
        guard let undone else { throw CorrectionError.unknownEdit(id) }
        return undone
    }

    /// The catalog opened for writing, as its owner sees it: a fenced or private photo is found, and moved,
    /// where it is.
    private func ownersCatalog() throws -> any LocalCatalogStore {
        var catalog = try catalog()
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        return catalog
    }
}

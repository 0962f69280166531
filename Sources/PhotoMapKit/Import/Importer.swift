// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// `photomap import`: reads the JPEG and HEIC files below some folders into the local catalog. Files as
/// they were at the last import (size, modification time, inode) are not read again; the others are
/// read on every core, each decoded once into its square and medium image, which go into the thumbnail
/// cache, while their records go into the catalog in one transaction. Nothing else is written, and the
/// originals are never copied.
public struct Importer: Sendable {
    /// Where the images made go.
    public let cache: ThumbnailCache
    /// The places photos are grouped into, loaded when a located photo needs one.
    public let places: @Sendable () throws -> LocalPlaces
    /// Told how many files of how many are done, from any thread.
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    /// Where photos' XMP sidecars are read from (their GPS wins over the file's).
    public var sidecars = SidecarPlacement()
    /// Who sees the photos it adds, and where they were taken (`import --visibility`).
    public var privacy = PhotoPrivacy(visibility: .private)

    /// Photo files larger than this are not read (no photo is; with its decode it would not fit in
    /// `PhotoFileReader.budget`, which all the workers share).
    static let maximumFileBytes = 256 << 20

    /// An importer making images into `cache`, places from `places`.
    public init(cache: ThumbnailCache, places: @escaping @Sendable () throws -> LocalPlaces) {
        self.cache = cache
        self.places = places
    }

    /// Imports the files below `roots` into `catalog`; with `prune`, files of the catalog below the roots
    /// that are gone are dropped, with the photos no other file holds. With a `geotagger`, the photos then
    /// without a location are located from its tracks.
    public func run(
        roots: [String], prune: Bool, into catalog: any LocalCatalogStore, geotagger: PhotoGeotagger? = nil
    ) throws -> ImportReport {
        // Absolute, so that a file keeps its path whichever folder photomap runs in.
        let rootPaths = roots.map { Array(URL(fileURLWithPath: $0).standardizedFileURL.path.utf8) }
        for (root, given) in zip(rootPaths, roots) {
            var info = stat()
            guard stat(FileWalker.cString(root), &info) == 0 else {
                throw ImportError.unreadable(path: given, reason: String(cString: strerror(errno)))
            }
        }
        let walked = FileWalker.walk(rootPaths)
        let sidecarImport = SidecarImport(placement: sidecars)
        // The files the catalog holds below the roots and the sidecars' folder: a catalog's other files
        // are neither read nor compared.
        let known = try catalog.files(below: rootPaths + (sidecars.folder.map { [Array($0.utf8)] } ?? []))
        var report = ImportReport()
        for (path, reason) in walked.problems { report.lines.append((FileWalker.shown(path), reason)) }
        var toRead: [FileWalker.Found] = []
        // The photo each file holds, for its sidecar; sidecars new or changed since the last import.
        var photoFiles: [(path: [UInt8], photo: String, readNow: Bool)] = []
        var changedSidecars = Set<[UInt8]>()
        for file in walked.files {
            if let before = known[file.path], before.isUnchanged(from: file.state) {
                report.unchanged += before.isOther ? 0 : 1
                report.tally(before, path: file.path)
                if let photo = before.photo { photoFiles.append((file.path, photo, false)) }
            } else {
                toRead.append(file)
                if SidecarImport.isSidecar(file.path) { changedSidecars.insert(file.path) }
            }
        }
        var changes = LocalCatalogChanges()
        changes.privacy = privacy
        for file in sidecarImport.folderFiles()
        where known[file.path].map({ !$0.isUnchanged(from: file.state) }) ?? true {
            changedSidecars.insert(file.path)
            var state = file.state
            state.isOther = true
            changes.files.append((file.path, state))
        }
        let outcomes = read(toRead, catalog: catalog)
        var loadedPlaces: LocalPlaces?
        let seen = Set(walked.files.map(\.path))
        let gone = known.keys.filter { path in
            !seen.contains(path) && rootPaths.contains { root in Self.isBelow(path, root) }
        }
        for (file, outcome) in zip(toRead, outcomes) {
            var state = file.state
            switch outcome {
            case let .photo(photo, problems, offset, capture):
                changes.captures[photo.id] = capture
                state.photo = photo.id
                state.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
                state.located = photo.coordinate != nil
                var place = LocalPlace.unlocated
                if let coordinate = photo.coordinate {
                    if loadedPlaces == nil { loadedPlaces = try places() }
                    place = loadedPlaces?.place(for: coordinate) ?? place
                }
                var placed = photo
                placed.placeID = place.id
                changes.photos.append((placed, place, Self.instant(of: placed, offset: offset)))
            case .known(let id, let located):
                state.photo = id
                state.located = located
            case let .skipped(reason):
                state.problem = reason
            case .other:
                state.isOther = true
            }
            changes.files.append((file.path, state))
            report.tally(state, path: file.path)
            if let photo = state.photo { photoFiles.append((file.path, photo, true)) }
        }
        report.gone = gone.count
        if prune { changes.gone = gone } else { report.goneKept = gone.count }
        report.photosMayBeGone = Set((toRead.map(\.path) + changes.gone).compactMap { known[$0]?.photo })
        report.removedPhotos = try catalog.apply(changes)
        report.writtenPhotos = changes.photos.map(\.photo)
        cache.flush()
        let fromSidecars = try sidecarImport.located(
            photoFiles: photoFiles, changedSidecars: changedSidecars, catalog: catalog, places: places)
        report.lines += fromSidecars.problems.map { (FileWalker.shown($0.path), $0.reason) }
        report.writtenPhotos += try catalog.locate(fromSidecars.located)
        if let geotagger {
            report.add(try geotagger.run(on: catalog, places: places), estimating: geotagger.estimateWithin != nil)
        }
        return report
    }

    /// What reading one file gave.
    enum Outcome: Sendable {
        /// A photo, with the fields left out of it.
        case photo(Photo, problems: [String], offset: Int?, capture: PhotoCapture)
        /// A photo the catalog holds already (the same bytes in another file): not decoded again.
        case known(id: String, located: Bool)
        /// An image that could not be read, and why.
        case skipped(String)
        /// No JPEG or HEIC.
        case other
    }

    /// Reads the files on every core, in their order; the catalog is asked which photos it holds, one at a
    /// time, meanwhile (`KnownPhotos`).
    private func read(_ files: [FileWalker.Found], catalog: any LocalCatalogStore) -> [Outcome] {
        guard !files.isEmpty else { return [] }
        let knownPhotos = KnownPhotos(catalog)
        let done = Locked(0)
        // One file a turn: each is a decode of its own, long beside the turn.
        return [Outcome](
            count: files.count,
            madeOnEveryCore: { index in
                let outcome = readOne(files[index], knownPhotos: knownPhotos)
                progress(
                    done.withLock {
                        $0 += 1
                        return $0
                    }, files.count)
                return outcome
            }, chunk: 1)
    }

    private func readOne(_ file: FileWalker.Found, knownPhotos: KnownPhotos) -> Outcome {
        let opened: PhotoFile
        switch PhotoFile.open(file.path, maximumBytes: Self.maximumFileBytes) {
        case .photo(let photo): opened = photo
        case .other: return .other
        case .refused(let reason): return .skipped(reason)
        }
        do {
            let (id, read) = try PhotoFileReader.read(opened) { id in knownPhotos.located(id) != nil }
            guard let read else { return .known(id: id, located: knownPhotos.located(id) ?? false) }
            let photo = LocalPhoto.record(
                id: id, fields: read.fields, fileName: file.path,
                mediumSize: read.mediumSize)
            try cache.keep(read.square, for: photo, size: .square)
            try cache.keep(read.medium, for: photo, size: .medium)
            knownPhotos.add(id, located: photo.coordinate != nil)
            return .photo(
                photo, problems: read.fields.problems, offset: read.fields.utcOffsetSeconds,
                capture: PhotoCapture(read.fields))
        } catch let error as ImageError {
            return .skipped("\(opened.kind == .jpeg ? "JPEG" : "HEIF") \(error)")
        } catch {
            return .skipped("\(error)")
        }
    }

    /// Whether `path` is `root` or below it.
    static func isBelow(_ path: [UInt8], _ root: [UInt8]) -> Bool {
        let folder = root.last == 0x2F ? root : root + [0x2F]
        return path == root || path.starts(with: folder)
    }

    /// When a photo was taken, in seconds since 1970: its local time less its offset (UTC when unknown).
    static func instant(of photo: Photo, offset: Int?) -> Double? {
        guard let taken = photo.dateTaken else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: taken).map { $0.timeIntervalSince1970 - Double(offset ?? 0) }
    }
}

extension ImportReport {
    /// Counts a file as its state says, and names it in the report when it was skipped or lost a field.
    mutating func tally(_ state: LocalFileState, path: [UInt8]) {
        if state.isOther {
            // A sidecar belongs to its photo: no file to report.
            if SidecarImport.isSidecar(path) { return }
            otherFiles += 1
            lines.append((FileWalker.shown(path), "not a JPEG or HEIC photo"))
            return
        }
        photos += 1
        if state.photo == nil {
            unreadable += 1
        } else if state.located {
            located += 1
            if state.locationSource == .track { locatedFromTracks += 1 }
            if state.locationSource == .estimated { locatedEstimated += 1 }
        } else {
            unlocated += 1
            if let photo = state.photo { unlocatedFiles[photo, default: 0] += 1 }
        }
        if let problem = state.problem { lines.append((FileWalker.shown(path), problem)) }
    }
}

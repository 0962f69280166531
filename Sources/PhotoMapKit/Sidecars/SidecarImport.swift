// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What `import` takes from XMP sidecars: a sidecar's GPS wins over the file's EXIF (as in digiKam and
/// Immich), read when its photo's file is read or when the sidecar itself is new or changed since the last
/// import, so that a sidecar another tool changed wins over an earlier correction made here.
struct SidecarImport {
    /// Where sidecars are looked for.
    let placement: SidecarPlacement

    /// Whether `path` names a sidecar (".xmp", any case): kept among the files, never reported as one that
    /// is no photo.
    static func isSidecar(_ path: [UInt8]) -> Bool {
        path.count > 4 && String(decoding: path.suffix(4), as: UTF8.self).lowercased() == ".xmp"
    }

    /// The sidecars of the sidecars' folder, as the walk finds them (none without a folder).
    func folderFiles() -> [FileWalker.Found] {
        guard let folder = placement.folder, FileManager.default.fileExists(atPath: folder) else { return [] }
        return FileWalker.walk([Array(folder.utf8)]).files.filter { Self.isSidecar($0.path) }
    }

    /// The locations sidecars give photos: for each photo file `photoFiles` holds (path → photo id) that
    /// was read now (`readNow`) or whose sidecar is among `changedSidecars`, its sidecar's location unless
    /// the catalog has it so already. Sidecars that cannot be read are reported by path, and left alone.
    func located(
        photoFiles: [(path: [UInt8], photo: String, readNow: Bool)], changedSidecars: Set<[UInt8]>,
        catalog: any LocalCatalogStore, places: () throws -> LocalPlaces
    ) throws -> (located: [LocatedPhoto], problems: [(path: [UInt8], reason: String)]) {
        var located: [String: LocatedPhoto] = [:]
        var problems: [(path: [UInt8], reason: String)] = []
        var loadedPlaces: LocalPlaces?
        for file in photoFiles {
            let candidates = placement.candidates(for: String(decoding: file.path, as: UTF8.self))
            guard file.readNow || candidates.contains(where: { changedSidecars.contains(Array($0.utf8)) }) else {
                continue
            }
            var found: SidecarLocation?
            do {
                for path in candidates where found == nil { found = try SidecarFile.location(at: path) }
            } catch {
                problems.append((Array(error.path.utf8), error.reason))
                continue
            }
            guard let found, let record = try catalog.photo(id: file.photo),
                record.coordinate != found.coordinate || record.locationSource != found.source
            else { continue }
            var place = LocalPlace.unlocated
            if let coordinate = found.coordinate {
                if loadedPlaces == nil { loadedPlaces = try places() }
                place = loadedPlaces?.place(for: coordinate) ?? .unlocated
            }
            located[file.photo] = LocatedPhoto(
                id: file.photo, coordinate: found.coordinate, place: place, source: found.source, estimateOffset: nil)
        }
        return (located.values.sorted { $0.id < $1.id }, problems)
    }
}

extension SidecarError {
    /// The sidecar it is about.
    var path: String {
        switch self {
        case .tooLarge(let path), .malformed(let path, _, _), .doctypeRefused(let path), .notXMP(let path),
            .unreadable(let path, _), .unwritable(let path, _):
            path
        }
    }

    /// What is wrong with it, without its path (a report line names that).
    var reason: String {
        let text = description
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}

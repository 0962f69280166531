// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `--sidecars`, `--sidecar-name` and `--sidecar-dir`: where `import` reads XMP sidecars, and whether
/// `import`, `geotag` and `locate` write the locations they set into them. Declared once, for the three.
enum SidecarOptions {
    /// Whether locations set are written into sidecars.
    enum Mode: String, CaseIterable, Sendable {
        case read, write
    }

    /// `--sidecars read|write`.
    static let sidecars = Option<Mode>.choice(
        "sidecars",
        "write: keep each location photomap sets or removes in the photo's XMP sidecar too "
            + "(or PHOTOMAP_SIDECARS=write); read (the default): only read them at import")
    /// `--sidecar-name full|base`.
    static let name = Option<SidecarPlacement.Naming>.choice(
        "sidecar-name",
        "full: IMG_1234.JPG.xmp (digiKam, darktable, Immich); base: IMG_1234.xmp (Lightroom); both are read",
        default: .full)
    /// `--sidecar-dir DIR`.
    static let folder = Option<String>.path(
        "sidecar-dir", .directory("DIR"),
        "keep sidecars in DIR, mirroring the originals' folders below the folders given to import")

    static let all = [sidecars.spec, name.spec, folder.spec]

    /// What the options ask of sidecars, decoded once.
    struct Values: Sendable {
        /// Whether to write them (`--sidecars write`, or PHOTOMAP_SIDECARS=write).
        var writes: Bool
        var naming: SidecarPlacement.Naming
        var folder: String?

        init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
            if let mode = try parsed.value(sidecars) {
                writes = mode == .write
            } else {
                let mode = environment["PHOTOMAP_SIDECARS"] ?? Mode.read.rawValue
                guard let known = Mode(rawValue: mode) else {
                    throw UsageError("PHOTOMAP_SIDECARS=\(mode): give read or write")
                }
                writes = known == .write
            }
            naming = try parsed.value(name) ?? .full
            folder = try parsed.value(SidecarOptions.folder)
        }

        /// Where sidecars are for a command run on `roots` (the folders given to `import`; none for the
        /// others, which take those `import` noted in --sidecar-dir).
        func placement(roots: [String]) -> SidecarPlacement {
            let placement = SidecarPlacement(naming: naming, folder: folder, roots: roots)
            return roots.isEmpty ? placement.withRecordedRoots() : placement
        }

        /// The writer when sidecars are to be written, else nil.
        func writer(roots: [String]) -> SidecarWriter? {
            writes ? SidecarWriter(placement: placement(roots: roots)) : nil
        }
    }

    /// Says what a writer did: how many sidecars, and each one left as it was (a warning each).
    static func tell(_ report: SidecarWriter.Report, console: Console) {
        for problem in report.problems { console.warn("sidecar \(problem)") }
        if !report.unplaced.isEmpty {
            console.warn(
                "no sidecar for \(Quantity.groupedWords(report.unplaced.count, "file", "files")) below none of the "
                    + "folders imported with this --sidecar-dir, e.g. \(report.unplaced[0])")
        }
        console.note("\(Quantity.groupedWords(report.written, "sidecar", "sidecars")) written")
    }
}

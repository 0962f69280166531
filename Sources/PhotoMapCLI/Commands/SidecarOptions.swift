import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `--sidecars`, `--sidecar-name` and `--sidecar-dir`: where `import` reads XMP sidecars, and whether
/// `import`, `geotag` and `locate` write the locations they set into them. Declared once, for the three.
enum SidecarOptions {
    /// `--sidecars read|write`.
    static let sidecars = OptionSpec.value(
        "sidecars", .choice(["read", "write"]),
        "write: keep each location photomap sets or removes in the photo's XMP sidecar too "
            + "(or PHOTOMAP_SIDECARS=write); read (the default): only read them at import")
    /// `--sidecar-name full|base`.
    static let name = OptionSpec.value(
        "sidecar-name", .choice(SidecarPlacement.Naming.allCases.map(\.rawValue)),
        "full: IMG_1234.JPG.xmp (digiKam, darktable, Immich); base: IMG_1234.xmp (Lightroom); both are read",
        default: SidecarPlacement.Naming.full.rawValue)
    /// `--sidecar-dir DIR`.
    static let folder = OptionSpec.value(
        "sidecar-dir", .directory("DIR"),
        "keep sidecars in DIR, mirroring the originals' folders below the folders given to import")

    static let all = [sidecars, name, folder]

    /// Where sidecars are for a command run on `roots` (the folders given to `import`; none for the others,
    /// which take those `import` noted in --sidecar-dir).
    static func placement(_ parsed: ParsedArguments, roots: [String]) -> SidecarPlacement {
        let placement = SidecarPlacement(
            naming: parsed.value(name.name).flatMap(SidecarPlacement.Naming.init(rawValue:)) ?? .full,
            folder: parsed.value(folder.name), roots: roots)
        return roots.isEmpty ? placement.withRecordedRoots() : placement
    }

    /// The writer when sidecars are to be written (`--sidecars write` or PHOTOMAP_SIDECARS=write), else nil.
    static func writer(
        _ parsed: ParsedArguments, configuration: Configuration, roots: [String]
    ) throws -> SidecarWriter? {
        let mode = parsed.value(sidecars.name) ?? configuration.environment["PHOTOMAP_SIDECARS"] ?? "read"
        guard mode == "write" else {
            guard mode == "read" else { throw UsageError("PHOTOMAP_SIDECARS=\(mode): give read or write") }
            return nil
        }
        return SidecarWriter(placement: placement(parsed, roots: roots))
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

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Where a photo file's XMP sidecar is: beside it as `IMG_1234.JPG.xmp` (digiKam, darktable, Immich) or
/// `IMG_1234.xmp` (Lightroom), or in a folder of its own that mirrors the originals' folders relative to
/// the folders given to `import` (for originals on read-only disks).
public struct SidecarPlacement: Sendable, Equatable {
    /// How a sidecar is named after its photo's file.
    public enum Naming: String, Sendable, CaseIterable {
        /// `IMG_1234.JPG.xmp`.
        case full
        /// `IMG_1234.xmp`.
        case base
    }

    /// The name sidecars are written under (both are read).
    public var naming: Naming
    /// The sidecars' own folder, or nil for beside the originals.
    public var folder: String?
    /// The import folders whose trees the sidecars' folder mirrors (absolute).
    public var roots: [String]

    /// The file in a sidecars' folder naming the import folders it mirrors, one a line, so that `locate` and
    /// `geotag` (which are given no folder) put a sidecar where `import` does.
    static let rootsFileName = ".photomap-sidecar-roots"

    /// A placement; `roots` are made absolute.
    public init(naming: Naming = .full, folder: String? = nil, roots: [String] = []) {
        self.naming = naming
        self.folder = folder.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.roots = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// Where the sidecar of the photo file at `file` is written; nil when there is a sidecars' folder and
    /// the file lies below none of its import folders.
    public func path(for file: String) -> String? {
        paths(for: file, naming)
    }

    /// Where a sidecar of `file` is looked for: the name written first, then the other.
    public func candidates(for file: String) -> [String] {
        [naming, naming == .full ? .base : .full].compactMap { paths(for: file, $0) }
    }

    private func paths(for file: String, _ naming: Naming) -> String? {
        let url = URL(fileURLWithPath: file)
        let name =
            naming == .full
            ? url.lastPathComponent + ".xmp" : url.deletingPathExtension().lastPathComponent + ".xmp"
        guard let folder else { return url.deletingLastPathComponent().appendingPathComponent(name).path }
        let parent = url.deletingLastPathComponent().path
        // The deepest import folder holding the file.
        guard
            let root = roots.filter({ parent == $0 || parent.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
                .max(by: { $0.count < $1.count })
        else { return nil }
        let relative = parent.dropFirst(root.count).drop { $0 == "/" }
        let mirrored = relative.isEmpty ? folder : folder + "/" + relative
        return mirrored + "/" + name
    }

    /// This placement with the import folders its sidecars' folder names added (none without a folder).
    public func withRecordedRoots() -> SidecarPlacement {
        guard let folder else { return self }
        let file = folder + "/" + Self.rootsFileName
        guard let bytes = try? SidecarFile.read(file) else { return self }
        let recorded = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        var placement = self
        placement.roots += recorded.filter { !placement.roots.contains($0) }
        return placement
    }

    /// Names the import folders in the sidecars' folder (with those named before), for `locate` and `geotag`.
    public func recordRoots() throws(SidecarError) {
        guard let folder, !roots.isEmpty else { return }
        let all = withRecordedRoots().roots
        let file = folder + "/" + Self.rootsFileName
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try AtomicFile.write(Data((all.joined(separator: "\n") + "\n").utf8), toPath: file)
        } catch {
            throw .unwritable(path: file, reason: "\(error)")
        }
    }
}

import Foundation

/// Where an installed photomap keeps its data (the catalog, its images, the gazetteer, the basemap and
/// the page assets), laid out as a checkout's `Fixtures/` with `assets/` beside them.
public enum InstalledData {
    /// The Debian package's data folder.
    public static let systemFolder = URL(fileURLWithPath: "/usr/share/photomap")

    /// The folders to look in, in order: `share/photomap` under the binary's prefix (`/usr/bin/photomap`
    /// gives `/usr/share/photomap`; so does a package unpacked into another root), then the system's.
    public static func folders(executable: String) -> [URL] {
        let binFolder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let besideBinary = binFolder.deletingLastPathComponent().appendingPathComponent("share/photomap")
            .standardizedFileURL
        return besideBinary.path == systemFolder.path ? [systemFolder] : [besideBinary, systemFolder]
    }
}

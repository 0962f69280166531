// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where an installed photomap keeps its data (the catalog, its images, the gazetteer, the basemap and
/// the page assets), laid out as a checkout's `Fixtures/` with `assets/` beside them.
public enum InstalledData {
    /// The Debian package's data folder.
    public static let systemFolder = URL(fileURLWithPath: "/usr/share/photomap")

    /// The folders to look in, in order: `share/photomap` under the binary's prefix (`/usr/bin/photomap`
    /// gives `/usr/share/photomap`; so does a package unpacked into another root), then the system's.
    public static func folders(executable: String) -> [URL] {
        let binFolder = executableURL(executable).deletingLastPathComponent()
        let besideBinary = binFolder.deletingLastPathComponent().appendingPathComponent("share/photomap")
            .standardizedFileURL
        return besideBinary.path == systemFolder.path ? [systemFolder] : [besideBinary, systemFolder]
    }

    /// The running binary's file from its `argv[0]`: a name found on `PATH` (no slash) says nothing of its
    /// folder, so the kernel's `/proc/self/exe` is asked instead; a path is resolved through its links.
    public static func executableURL(_ argument: String) -> URL {
        if !argument.contains("/"),
            let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: argument).resolvingSymlinksInPath()
    }
}

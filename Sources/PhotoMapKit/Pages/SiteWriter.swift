// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Writes a site's files under a root folder, each whole or not at all (`StagedFile`) and only when
/// it changed, so running an export again rewrites only what changed (and a web server's caches stay
/// valid). With a manifest kept in the site, a page made from the same inputs as last time is not even
/// rendered; images are hard-linked from the thumbnail cache.
public final class SiteWriter {
    /// The site's folder.
    public let root: URL
    /// Files written because they were new or different.
    public internal(set) var written = 0
    /// Files left alone because they were already as they should be.
    public internal(set) var unchanged = 0
    /// Images placed as hard links to the cache's files (the rest were copied).
    public internal(set) var linked = 0
    /// Pages rendered because what they are made from changed (or their file did).
    public internal(set) var rendered = 0

    let manifest: SiteManifest
    let rootPath: String
    private var createdFolders: Set<String> = []
    /// Whether each folder looked at was missing when this run first looked: a folder this run made
    /// holds only what this run put there, so no file in it is looked for (a cold export's images and
    /// pages cost no failing stat each).
    private var foldersMissingAtStart: [String: Bool] = [:]
    /// The root folder, open once its folder exists: files are looked at relative to it.
    private var rootDescriptor: Int32 = -1
    /// The images found or placed in this run, by photo and size: an export asks for each twice (which
    /// to fetch, then the pages' inputs), and the second time costs neither a cache key nor a lookup.
    var imagesThisRun = PlacedImages()
    /// Whether the last image found was a PNG: a site's images mostly share one format, looked for first.
    var lastImageWasPNG = false

    /// A writer for the site in `root`; `keepsManifest` reads the site's manifest and lets `commit()`
    /// write the next one (an export's own folder, not a map page beside other files).
    public init(root: URL, keepsManifest: Bool = false) {
        self.root = root
        rootPath = root.path
        manifest = keepsManifest ? SiteManifest(site: root) : SiteManifest()
    }

    deinit {
        if rootDescriptor >= 0 { close(rootDescriptor) }
    }

    /// Writes `text` at `path` (relative to the root) unless the file already holds exactly that.
    public func write(_ text: String, to path: String) throws(PageError) {
        try write(Data(text.utf8), to: path)
    }

    /// Writes the page at `path` made from `inputs` (`InputDigest`): when the manifest says the file
    /// there was made from the same inputs and is still that file, `render` is not even called.
    /// Whether it was.
    @discardableResult
    public func writePage(_ path: String, inputs pageInputs: InputDigest, render: () throws -> String) throws -> Bool {
        let inputs = SiteManifest.Inputs(digest: pageInputs.finishDigest())
        if manifest.isCurrent(path, inputs: inputs, identity: identity) {
            unchanged += 1
            return false
        }
        rendered += 1
        try write(Data(try render().utf8), to: path, inputs: inputs)
        return true
    }

    /// Whether a page was written (or found current) at `path` in this run already.
    public func wroteThisRun(_ path: String) -> Bool {
        manifest.recordedThisRun(path)
    }

    /// Writes `data` at `path` unless the file already holds exactly that; whole or not at all.
    public func write(_ data: Data, to path: String) throws(PageError) {
        try write(data, to: path, inputs: SiteManifest.Inputs(digest: SHA256.digest(data)))
    }

    /// The same, recording `inputs` as what it was made from (nil: not recorded).
    func write(_ data: Data, to path: String, inputs: SiteManifest.Inputs?) throws(PageError) {
        if let inputs, manifest.isCurrent(path, inputs: inputs, identity: identity) {
            unchanged += 1
            return
        }
        try createFolder(of: path)
        let stored = try Self.store(
            data, at: path, root: rootPath, directory: openRoot(),
            isNew: folderWasMissing(path))
        count(stored)
        if let inputs { manifest.record(path, inputs: inputs) { _ in stored.identity } }
    }

    /// A file `store` wrote or found as it should be, and which file it is.
    struct StoredFile: Sendable {
        var written: Bool
        var identity: SiteManifest.FileIdentity?
    }

    /// Writes `data` at `path` under `root` (open as `directory`; its folder made already) unless the file
    /// there holds exactly that; whole or not at all. No file is looked for in a folder this run made
    /// (`isNew`). It touches no writer's state: pages are stored on several threads at once.
    static func store(
        _ data: Data, at path: String, root: String, directory: Int32,
        isNew: Bool
    ) throws(PageError) -> StoredFile {
        let file = root + "/" + path
        // Only a file of the same size can hold the same bytes: anything else is not read at all.
        if !isNew,
            let existing = SiteManifest.FileIdentity(directory: directory, path: directory == AT_FDCWD ? file : path),
            existing.size == data.count,
            FileManager.default.contents(atPath: file) == data
        {
            return StoredFile(written: false, identity: existing)
        }
        do {
            let staged = try StagedFile(replacingPath: file)
            try staged.write(data)
            // The file's identity from its open descriptor: linking it in (or renaming it) keeps its inode,
            // size and time.
            let status = try staged.status()
            try staged.commit()
            return StoredFile(written: true, identity: SiteManifest.FileIdentity(status))
        } catch {
            throw PageError.writing(error.code.rawValue, path: file)
        }
    }

    func count(_ stored: StoredFile) {
        if stored.written { written += 1 } else { unchanged += 1 }
    }

    /// Copies a file into the site at `path` unless an identical one is there.
    public func copy(_ source: URL, to path: String) throws(PageError) {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw .writeFailed(path: source.path, reason: "cannot read it")
        }
        try write(data, to: path)
    }

    /// The marker an export leaves in its site until it has written its manifest: found at the start
    /// of the next one, it says a run was stopped, whose temporary files are then removed.
    static let unfinishedMarker = ".photomap-export-unfinished"

    /// Whether the folder `root` holds a photomap site: its manifest, or the marker of an export begun.
    public static func holdsSite(at root: URL) -> Bool {
        [SiteManifest.fileName, unfinishedMarker].contains {
            access(root.appendingPathComponent($0).path, F_OK) == 0
        }
    }

    /// Starts an export into the site: removes what a stopped one left behind, and marks the site as
    /// being written until `commit()`.
    public func begin() throws(PageError) {
        let marker = fullPath(Self.unfinishedMarker)
        if access(marker, F_OK) == 0 {
            removeAbandonedTemporaryFiles()
        } else {
            do {
                try FileManager.default.createDirectory(atPath: rootPath, withIntermediateDirectories: true)
            } catch {
                throw .writeFailed(path: rootPath, reason: (error as NSError).localizedDescription)
            }
            let descriptor = open(marker, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw PageError.writing(errno, path: marker) }
            close(descriptor)
        }
    }

    /// Removes the pages the last run made and this one did not, then writes the manifest of what this run
    /// made, last and whole or not at all, when it changed; the site is then finished. (A run stopped before
    /// this leaves the old manifest, so the next run removes them.)
    public func commit() throws(PageError) {
        for path in manifest.leftBehind() where !path.split(separator: "/").contains("..") {
            if unlink(fullPath(path)) != 0 && errno != ENOENT { throw PageError.writing(errno, path: fullPath(path)) }
        }
        if let file = manifest.file, manifest.changed {
            do {
                try AtomicFile.write(manifest.data(), to: file)
            } catch {
                throw PageError.writing(error.code.rawValue, path: file.path)
            }
        }
        unlink(fullPath(Self.unfinishedMarker))
    }

    /// Removes the hidden temporary files (`.tmp-{name}-{process id}-{number}`) of writers that are no
    /// longer running.
    private func removeAbandonedTemporaryFiles() {
        let enumerator = FileManager.default.enumerator(atPath: rootPath)
        while let path = enumerator?.nextObject() as? String {
            let name = path.split(separator: "/").last ?? ""
            guard name.hasPrefix(".tmp-") else { continue }
            let parts = name.split(separator: "-")
            guard parts.count >= 4, let process = pid_t(parts[parts.count - 2]), kill(process, 0) != 0,
                errno == ESRCH
            else { continue }
            unlink(fullPath(path))
        }
    }

    func fullPath(_ path: String) -> String {
        rootPath + "/" + path
    }

    /// Which file is at `path` now, if any.
    func identity(_ path: String) -> SiteManifest.FileIdentity? {
        let (directory, base) = lookupRoot()
        return SiteManifest.FileIdentity(directory: directory, path: base + path)
    }

    /// The folder a site path is looked at relative to (`openRoot`) and what goes before the path: nothing
    /// under the open root, the root's path and a slash under the working directory.
    func lookupRoot() -> (directory: Int32, base: String) {
        let directory = openRoot()
        return (directory, directory == AT_FDCWD ? rootPath + "/" : "")
    }

    /// The root folder's descriptor, opened the first time it exists; `AT_FDCWD` until then (paths are
    /// then full paths).
    func openRoot() -> Int32 {
        if rootDescriptor < 0 { rootDescriptor = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        return rootDescriptor >= 0 ? rootDescriptor : AT_FDCWD
    }

    /// Whether `path`'s folder was missing when this run first looked at it (the root counts as a folder).
    func folderWasMissing(_ path: String) -> Bool {
        let folder = Self.folder(of: path).map(String.init) ?? ""
        if let missing = foldersMissingAtStart[folder] { return missing }
        let missing = access(folder.isEmpty ? rootPath : fullPath(folder), F_OK) != 0 && errno == ENOENT
        foldersMissingAtStart[folder] = missing
        return missing
    }

    func createFolder(of path: String) throws(PageError) {
        // Looked at before it is made, so that a folder this run makes is known as new.
        _ = folderWasMissing(path)
        guard let folder = Self.folder(of: path).map(String.init) else { return }
        guard !createdFolders.contains(folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: fullPath(folder), withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: fullPath(folder), reason: (error as NSError).localizedDescription)
        }
        createdFolders.insert(folder)
    }

    /// The folder part of `path`, cut at its last slash as a byte (not by characters: asked twice for
    /// each of 200,000 images when nothing changed); nil for a path in the root.
    private static func folder(of path: String) -> Substring? {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[..<$0] }
    }

}

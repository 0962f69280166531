import Foundation

/// Writes a site's files under a root folder, each whole or not at all (a hidden temporary file
/// renamed into place) and only when it changed, so running an export again rewrites only what
/// changed (and a web server's caches stay valid). With a manifest kept in the site, a page made from
/// the same inputs as last time is not even rendered; images are hard-linked from the thumbnail cache.
public final class SiteWriter {
    /// The site's folder.
    public let root: URL
    /// Files written because they were new or different.
    public private(set) var written = 0
    /// Files left alone because they were already as they should be.
    public private(set) var unchanged = 0
    /// Images placed as hard links to the cache's files (the rest were copied).
    public private(set) var linked = 0
    /// Pages rendered because what they are made from changed (or their file did).
    public private(set) var rendered = 0

    let manifest: SiteManifest
    private let rootPath: String
    private var createdFolders: Set<String> = []
    /// The root folder, open once its folder exists: files are looked at relative to it.
    private var rootDescriptor: Int32 = -1
    /// The images found or placed in this run, by photo and size: an export asks for each twice (which
    /// to fetch, then the pages' inputs), and the second time costs neither a cache key nor a lookup.
    private var imagesThisRun = PlacedImages()
    /// Whether the last image found was a PNG: a site's images mostly share one format, looked for first.
    private var lastImageWasPNG = false

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

    /// Writes the page at `path` made from `inputs` (`PageInputs`): when the manifest says the file
    /// there was made from the same inputs and is still that file, `render` is not even called.
    /// Whether it was.
    @discardableResult
    public func writePage(_ path: String, inputs pageInputs: PageInputs, render: () throws -> String) throws -> Bool {
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
    private func write(_ data: Data, to path: String, inputs: SiteManifest.Inputs?) throws(PageError) {
        let file = fullPath(path)
        if let inputs, manifest.isCurrent(path, inputs: inputs, identity: identity) {
            unchanged += 1
            return
        }
        var status = stat()
        // Only a file of the same size can hold the same bytes: anything else is not read at all.
        if stat(file, &status) == 0, Int(status.st_size) == data.count,
           FileManager.default.contents(atPath: file) == data {
            unchanged += 1
        } else {
            try createFolder(of: path)
            do {
                try AtomicFile.write(data, toPath: file)
            } catch {
                throw Self.writeError(error.code.rawValue, path: file)
            }
            written += 1
        }
        if let inputs { manifest.record(path, inputs: inputs, identity: identity) }
    }

    /// Copies a file into the site at `path` unless an identical one is there.
    public func copy(_ source: URL, to path: String) throws(PageError) {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw .writeFailed(path: source.path, reason: "cannot read it")
        }
        try write(data, to: path)
    }

    /// A photo's image of `size` in the site: the one found or placed earlier in this run, else what
    /// `place` finds or places (kept when there is one). A photo is one record in a run, as it has one page.
    func image(of photo: Photo, size: PhotoSize, place: () throws -> String?) rethrows -> String? {
        if let path = imagesThisRun[photo.id, size] { return path }
        let path = try place()
        if let path { imagesThisRun[photo.id, size] = path }
        return path
    }

    /// Makes room for `count` more images found or placed in this run: the table grows once, not by
    /// doubling (which for 200,000 images briefly held both tables, the export's peak of memory).
    func expectImages(_ count: Int) {
        imagesThisRun.reserve(images: count)
    }

    /// The image already in the site at `stem` plus its extension (".jpg" or ".png"): placed by an
    /// earlier export, it stays even when the cache has evicted it since.
    func placedImage(stem: String) -> String? {
        for isPNG in [lastImageWasPNG, !lastImageWasPNG] {
            let path = stem + (isPNG ? ".png" : ".jpg")
            if let file = identity(path), file.size > 0 {
                lastImageWasPNG = isPNG
                return path
            }
        }
        return nil
    }

    /// Places the cache's file `source` at `path`: a hard link when the site and the cache share a
    /// file system, else a copy. Either way the site's file stays as it is when the cache later
    /// evicts or replaces its own (the cache writes new files and renames them, never into a file in
    /// place), and clearing the cache never takes it away. False when `source` is gone.
    func placeImage(from source: String, at path: String) throws(PageError) -> Bool {
        let file = fullPath(path)
        try createFolder(of: path)
        // link(2) makes the name appear at once, for a file that is whole already.
        if Glibc.link(source, file) == 0 {
            linked += 1
            written += 1
        } else {
            switch errno {
            case ENOENT: return false
            // The same name is the same image (its URL's digest): one already there stays.
            case EEXIST: unchanged += 1
            // Another file system, or one without hard links (or with this inode's links used up).
            case EXDEV, EPERM, EMLINK, EOPNOTSUPP:
                guard let data = FileManager.default.contents(atPath: source) else { return false }
                try write(data, to: path, inputs: nil)
            case let failure: throw Self.writeError(failure, path: file)
            }
        }
        return true
    }

    /// The marker an export leaves in its site until it has written its manifest: found at the start
    /// of the next one, it says a run was stopped, whose temporary files are then removed.
    static let unfinishedMarker = ".photomap-export-unfinished"

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
            guard descriptor >= 0 else { throw Self.writeError(errno, path: marker) }
            close(descriptor)
        }
    }

    /// Writes the manifest of what this run made, last and whole or not at all, when it changed; the
    /// site is then finished.
    public func commit() throws(PageError) {
        if let file = manifest.file, manifest.changed {
            do {
                try AtomicFile.write(manifest.data(), to: file)
            } catch {
                throw Self.writeError(error.code.rawValue, path: file.path)
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
                  errno == ESRCH else { continue }
            unlink(fullPath(path))
        }
    }

    private func fullPath(_ path: String) -> String {
        rootPath + "/" + path
    }

    /// Which file is at `path` now, if any.
    private func identity(_ path: String) -> SiteManifest.FileIdentity? {
        if rootDescriptor < 0 { rootDescriptor = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard rootDescriptor >= 0 else { return SiteManifest.FileIdentity(directory: AT_FDCWD, path: fullPath(path)) }
        return SiteManifest.FileIdentity(directory: rootDescriptor, path: path)
    }

    private func createFolder(of path: String) throws(PageError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        guard !createdFolders.contains(folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: fullPath(folder), withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: fullPath(folder), reason: (error as NSError).localizedDescription)
        }
        createdFolders.insert(folder)
    }

    /// ENOSPC and EDQUOT are "disk full"; anything else names the failing call's reason.
    static func writeError(_ code: Int32, path: String) -> PageError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .writeFailed(path: path, reason: String(cString: strerror(code)))
    }

    /// The link from the page at `from` to the file at `to`, both relative to the root; each path
    /// segment is percent-encoded, so a file named "trip #2.html" or "a:b.html" links as a path.
    public static func link(from page: String, to target: String) -> String {
        let depth = page.split(separator: "/").count - 1
        let encoded = target.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? String($0) }
            .joined(separator: "/")
        return String(repeating: "../", count: max(depth, 0)) + encoded
    }

    /// Unreserved characters only: no "#", "?", "%" or ":" (which would read as a scheme) left raw.
    private static let pathSegmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

import Foundation

/// Writes a site's files under a root folder, each whole or not at all (`StagedFile`) and only when
/// it changed, so running an export again rewrites only what changed (and a web server's caches stay
/// valid). With a manifest kept in the site, a page made from the same inputs as last time is not even
/// rendered; images are hard-linked from the thumbnail cache.
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
    /// Whether each folder looked at was missing when this run first looked: a folder this run made
    /// holds only what this run put there, so no file in it is looked for (a cold export's images and
    /// pages cost no failing stat each).
    private var foldersMissingAtStart: [String: Bool] = [:]
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

    /// A page for `writePages`: where it goes, what it is made from, how it is made.
    struct PageJob {
        let path: String
        let inputs: InputDigest
        /// Called on any thread, beside other pages' renders: it must read nothing another thread changes.
        let render: () throws -> String
    }

    /// Writes `pages` as `writePage` writes each, the ones not current rendered and written on every core
    /// at once: each is its own file, and what they share (the manifest, the counts, the folders made) is
    /// touched only on the calling thread, before and after. The first failure, in the pages' order, is
    /// thrown once all have run and the pages written are recorded.
    func writePages(_ pages: [PageJob]) throws {
        var pending: [(path: String, inputs: SiteManifest.Inputs, render: () throws -> String, isNew: Bool)] = []
        for page in pages {
            let inputs = SiteManifest.Inputs(digest: page.inputs.finishDigest())
            if manifest.isCurrent(page.path, inputs: inputs, identity: identity) {
                unchanged += 1
            } else {
                try createFolder(of: page.path)
                pending.append((page.path, inputs, page.render, folderWasMissing(page.path)))
            }
        }
        rendered += pending.count
        let directory = openRoot(), rootPath = rootPath, renders = Renders(pending.map(\.render))
        let paths = pending.map(\.path), new = pending.map(\.isNew)
        let outcomes = Locked([Result<StoredFile, any Error>?](repeating: nil, count: pending.count))
        DispatchQueue.concurrentPerform(iterations: pending.count) { index in
            let outcome = Result<StoredFile, any Error> {
                try Self.store(
                    Data(try renders.calls[index]().utf8), at: paths[index], root: rootPath,
                    directory: directory, isNew: new[index])
            }
            outcomes.withLock { $0[index] = outcome }
        }
        var failure: (any Error)?
        for (page, outcome) in zip(pending, outcomes.withLock { $0 }) {
            switch outcome {
            case let .success(stored):
                count(stored)
                manifest.record(page.path, inputs: page.inputs) { _ in stored.identity }
            case let .failure(error): failure = failure ?? error
            case nil: continue
            }
        }
        if let failure { throw failure }
    }

    /// The renders of a batch of pages, called on several threads: each reads only values made before
    /// the batch and never changed while it runs (`PageJob.render`), which is what makes sharing them safe.
    /// The compiler cannot see it: a render reads the page builder, whose links hold this writer.
    private struct Renders: @unchecked Sendable {
        let calls: [() throws -> String]

        init(_ calls: [() throws -> String]) {
            self.calls = calls
        }
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
    private struct StoredFile: Sendable {
        var written: Bool
        var identity: SiteManifest.FileIdentity?
    }

    /// Writes `data` at `path` under `root` (open as `directory`; its folder made already) unless the file
    /// there holds exactly that; whole or not at all. No file is looked for in a folder this run made
    /// (`isNew`). It touches no writer's state: pages are stored on several threads at once.
    private static func store(
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

    private func count(_ stored: StoredFile) {
        if stored.written { written += 1 } else { unchanged += 1 }
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

    /// Each job's image in the site: found or placed earlier in this run, else the one an earlier export
    /// placed (`placedImage(stem:)`), looked for on every core (a stat each: 200,000 for a site of
    /// 100,000 photos). Those found are kept as this run's.
    func placedImages(_ jobs: [ImageJob]) -> [String?] {
        var paths = jobs.map { imagesThisRun[$0.photo.id, $0.size] }
        let lookedFor = paths.indices.filter { paths[$0] == nil && !folderWasMissing(jobs[$0].stem) }
        // The first says which extension the others are looked for with first.
        let first = lookedFor.first.flatMap { placedImage(stem: jobs[$0].stem) }
        let (directory, base) = lookupRoot(), guess = lastImageWasPNG
        let found = [Bool?](
            count: lookedFor.count,
            madeOnEveryCore: { index in
                index == 0
                    ? first.map { $0.hasSuffix(".png") }
                    : Self.placedImageIsPNG(stem: jobs[lookedFor[index]].stem, in: directory, base: base, guess: guess)
            })
        for (index, isPNG) in zip(lookedFor, found) {
            guard let isPNG else { continue }
            let path = jobs[index].stem + (isPNG ? ".png" : ".jpg")
            paths[index] = path
            imagesThisRun[jobs[index].photo.id, jobs[index].size] = path
        }
        return paths
    }

    /// The image an earlier export placed at `stem` plus ".png" or ".jpg", a non-empty file: it stays even
    /// when the cache has evicted it since.
    func placedImage(stem: String) -> String? {
        guard !folderWasMissing(stem) else { return nil }
        let (directory, base) = lookupRoot()
        guard let isPNG = Self.placedImageIsPNG(stem: stem, in: directory, base: base, guess: lastImageWasPNG)
        else { return nil }
        lastImageWasPNG = isPNG
        return stem + (isPNG ? ".png" : ".jpg")
    }

    /// Whether the image at `base` + `stem` (relative to the folder open as `directory`) is a PNG, a JPEG, or
    /// neither (nil), the extension `guess` says first looked at first. The path is made on the stack: on
    /// every core, threads making a string each would meet in malloc.
    private static func placedImageIsPNG(stem: String, in directory: Int32, base: String, guess isPNG: Bool) -> Bool? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: base.utf8.count + stem.utf8.count + 5) { name in
            guard let path = name.baseAddress else { return nil }
            var end = 0
            func append(_ text: String) {
                for byte in text.utf8 {
                    name[end] = CChar(bitPattern: byte)
                    end += 1
                }
            }
            append(base)
            append(stem)
            let stemEnd = end
            for candidate in [isPNG, !isPNG] {
                end = stemEnd
                append(candidate ? ".png" : ".jpg")
                name[end] = 0
                var status = stat()
                if fstatat(directory, path, &status, 0) == 0, status.st_mode & S_IFMT == S_IFREG,
                    status.st_size > 0
                {
                    return candidate
                }
            }
            return nil
        }
    }

    /// An image to place with others (`placeImages`): whose, of which size, and where it goes in the site
    /// without its extension.
    struct ImageJob: Sendable {
        let photo: Photo
        let size: PhotoSize
        let stem: String
    }

    /// Places each job's image from `store` (`linked`; one already in the site stays), the store's lookups
    /// and the links made on every core; what they share (the images of this run, the counts, the folders
    /// made) is touched on the calling thread only. The path each image now has in the site, or nil where
    /// the store holds none; the first failure is thrown once all have run.
    @discardableResult
    func placeImages(_ jobs: [ImageJob], from store: any ImageStore) throws(PageError) -> [String?] {
        var paths = placedImages(jobs)
        var pending: [Int] = []
        for (index, job) in jobs.enumerated() where paths[index] == nil {
            try createFolder(of: job.stem)
            pending.append(index)
        }
        // Each found image and what link(2) said (0 when it made the link).
        let found = Locked([(image: LocalImage, path: String, linkError: Int32)?](repeating: nil, count: pending.count))
        let rootPath = rootPath, lookedFor = pending
        DispatchQueue.concurrentPerform(iterations: lookedFor.count) { index in
            let job = jobs[lookedFor[index]]
            guard let image = store.localImage(of: job.photo, size: job.size) else { return }
            let path = job.stem + "." + image.fileExtension
            // link(2) makes the name appear at once, for a file that is whole already.
            let linkError = Glibc.link(image.path, rootPath + "/" + path) == 0 ? 0 : errno
            found.withLock { $0[index] = (image, path, linkError) }
        }
        var failure: PageError?
        for (index, outcome) in zip(pending, found.withLock { $0 }) {
            guard let outcome else { continue }
            do {
                if try linked(outcome.linkError, from: outcome.image.path, at: outcome.path) {
                    paths[index] = outcome.path
                }
            } catch {
                failure = failure ?? error
            }
        }
        for (job, path) in zip(jobs, paths) {
            if let path { imagesThisRun[job.photo.id, job.size] = path }
        }
        if let failure { throw failure }
        return paths
    }

    /// Counts a link(2) of the cache's file `source` at `path` that failed with `linkError` (0: it made the
    /// link): a hard link when the site and the cache share a file system, else a copy. Either way the
    /// site's file stays as it is when the cache later evicts or replaces its own (the cache links in a
    /// new file written whole, never writes into one in place), and clearing the cache never takes it away.
    /// An image already there stays. False when `source` is gone.
    private func linked(_ linkError: Int32, from source: String, at path: String) throws(PageError) -> Bool {
        switch linkError {
        case 0:
            linked += 1
            written += 1
        case ENOENT: return false
        // The same name is the same image (its URL's digest): one already there stays.
        case EEXIST: unchanged += 1
        // Another file system, or one without hard links (or with this inode's links used up).
        case EXDEV, EPERM, EMLINK, EOPNOTSUPP:
            guard let data = FileManager.default.contents(atPath: source) else { return false }
            try write(data, to: path, inputs: nil)
        case let failure: throw PageError.writing(failure, path: fullPath(path))
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
            guard descriptor >= 0 else { throw PageError.writing(errno, path: marker) }
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

    private func fullPath(_ path: String) -> String {
        rootPath + "/" + path
    }

    /// Which file is at `path` now, if any.
    private func identity(_ path: String) -> SiteManifest.FileIdentity? {
        let (directory, base) = lookupRoot()
        return SiteManifest.FileIdentity(directory: directory, path: base + path)
    }

    /// The folder a site path is looked at relative to (`openRoot`) and what goes before the path: nothing
    /// under the open root, the root's path and a slash under the working directory.
    private func lookupRoot() -> (directory: Int32, base: String) {
        let directory = openRoot()
        return (directory, directory == AT_FDCWD ? rootPath + "/" : "")
    }

    /// The root folder's descriptor, opened the first time it exists; `AT_FDCWD` until then (paths are
    /// then full paths).
    private func openRoot() -> Int32 {
        if rootDescriptor < 0 { rootDescriptor = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        return rootDescriptor >= 0 ? rootDescriptor : AT_FDCWD
    }

    /// Whether `path`'s folder was missing when this run first looked at it (the root counts as a folder).
    private func folderWasMissing(_ path: String) -> Bool {
        let folder = Self.folder(of: path).map(String.init) ?? ""
        if let missing = foldersMissingAtStart[folder] { return missing }
        let missing = access(folder.isEmpty ? rootPath : fullPath(folder), F_OK) != 0 && errno == ENOENT
        foldersMissingAtStart[folder] = missing
        return missing
    }

    private func createFolder(of path: String) throws(PageError) {
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

    /// The link from the page at `from` to the file at `to`, both relative to the root; each path
    /// segment is percent-encoded, so a file named "trip #2.html" or "a:b.html" links as a path.
    public static func link(from page: String, to target: String) -> String {
        // The page's folders: its non-empty segments but the last (as `split(separator: "/")` counts).
        var segments = 0
        var previous = UInt8(ascii: "/")
        for byte in page.utf8 {
            if byte != UInt8(ascii: "/") && previous == UInt8(ascii: "/") { segments += 1 }
            previous = byte
        }
        // Nearly every path is plain already (ids and digests): encoded only when a byte needs it.
        let encoded =
            target.utf8.allSatisfy(isPlainPathByte)
            ? target
            : target.split(separator: "/", omittingEmptySubsequences: false)
                .map { URLText.percentEncoded($0) }
                .joined(separator: "/")
        return String(repeating: "../", count: max(segments - 1, 0)) + encoded
    }

    /// Whether a byte stands in a link as it is: a path's slash or an unreserved character.
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

// Images placed into the site from the image store: hard links where the file system allows.
extension SiteWriter {
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
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A photo whose 75×75 square is at `url`.
private func photo(_ id: String, square url: String) -> Photo {
    Photo(id: id, images: [.square: ImageReference(url: url, width: 75, height: 75)])
}

extension ThumbnailCache {
    /// Waits for one image through the async API, as a Result.
    func result(for photo: Photo, size: PhotoSize = .square) async -> Result<URL, ThumbnailError> {
        do {
            return .success(try await image(for: photo, size: size))
        } catch {
            return .failure(error)
        }
    }
}

/// Waits for one square.
private func square(_ cache: ThumbnailCache, _ photo: Photo) async -> Result<URL, ThumbnailError> {
    await cache.result(for: photo)
}

/// Counts fetches and answers after 0.3 s, so concurrent requests overlap.
/// Holds every fetch until `release()` (the download is in flight for as long as a test needs, however
/// slow the machine), then answers it with `body`; counts the fetches.
private final class GatedCountingOrigin: ImageOrigin {
    private typealias Completion = @Sendable (Result<Data, ThumbnailError>) -> Void
    private let state = Locked((fetches: 0, released: false, waiting: [Completion]()))
    let body: Data
    var fetches: Int { state.withLock { $0.fetches } }

    init(body: Data) {
        self.body = body
    }

    func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        let held = state.withLock { state in
            state.fetches += 1
            if !state.released { state.waiting.append(completion) }
            return !state.released
        }
        if !held { answer(completion) }
    }

    /// Answers the fetches held so far, and every later one at once.
    func release() {
        state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }.forEach(answer)
    }

    private func answer(_ completion: @escaping Completion) {
        DispatchQueue.global().async { [body] in completion(.success(body)) }
    }
}

@Suite("Thumbnail cache")
struct ThumbnailCacheTests {
    let images = LoopbackServer.images
    let folder: TemporaryFolder
    let cache: ThumbnailCache

    init() throws {
        folder = try TemporaryFolder()
        cache = ThumbnailCache(
            cacheDirectory: folder.url,
            origin: HTTPImageOrigin(
                retryPolicy: .never,
                timeouts: HTTPTimeouts(connect: 2, total: 3, stall: 1)))
    }

    /// Files in the cache folder that are not entries, the lock file or the journal: there must never be any.
    func strayFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: cache.directory.path)
        var stray: [String] = []
        while let path = enumerator?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            let isFolder = (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory
            if !isFolder && !DiskStore.isEntryName(name) && name != ".fetching.lock"
                && !name.hasPrefix(".journal.sqlite")
            {
                stray.append(path)
            }
        }
        return stray
    }

    @Test("a square is fetched once, stored under a hash of its URL, and then served from disk")
    func fetchThenHit() async throws {
        let url = images.url("/ok/square-1.png")
        let first = try await square(cache, photo("1", square: url)).get()
        #expect(first.lastPathComponent == SHA256.hex(url))
        #expect(
            first.deletingLastPathComponent().lastPathComponent == String(SHA256.hex(url).prefix(DiskStore.shardDigits))
        )
        #expect(try PNGCodec.decode(Data(contentsOf: first)).width == 75)
        let second = try await square(cache, photo("other id, same URL", square: url)).get()
        #expect(second == first)
        #expect(try images.count(of: "/ok/square-1.png") == 1)
        let stats = cache.statistics()
        #expect(stats.entries == 1 && stats.hits == 1 && stats.misses == 1)
    }

    @Test("100 concurrent requests for one URL make one download, and all get the file")
    func coalescing() async throws {
        let path = "/slow/square-2.png"
        let results = await withTaskGroup(of: Result<URL, ThumbnailError>.self) { group in
            for index in 0..<100 {
                group.addTask { [cache, images] in
                    await withCheckedContinuation { continuation in
                        cache.image(for: photo("p\(index)", square: images.url(path)), queue: .global()) {
                            continuation.resume(returning: $0)
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(Set(results.compactMap { try? $0.get() }).count == 1)
        #expect(try images.count(of: path) == 1)
    }

    @Test("cancelling one requester leaves the others waiting for the same download")
    func cancellationIsPerRequester() async throws {
        let origin = GatedCountingOrigin(body: try PNGCodec.encode(TestImages.pattern(width: 75, height: 75, seed: 3)))
        let cache = ThumbnailCache(cacheDirectory: folder.url, origin: origin)
        let done = DispatchGroup()
        let outcomes = Outcomes()
        var requests: [ThumbnailRequest] = []
        for index in 0..<3 {
            done.enter()
            requests.append(
                cache.image(
                    for: photo("\(index)", square: "http://example.invalid/a.png"),
                    queue: .global()
                ) { result in
                    outcomes.add(index, result)
                    done.leave()
                })
        }
        requests[1].cancel()
        origin.release()
        done.wait()
        #expect(outcomes.result(1) == .failure(.cancelled))
        #expect(outcomes.result(0).map { (try? $0.get()) != nil } == true)
        #expect(outcomes.result(2).map { (try? $0.get()) != nil } == true)
        #expect(origin.fetches == 1)
    }

    @Test("a server's miss is handed the bytes it stored, nothing opened again; the next look is a hit on disk")
    func servedMiss() throws {
        let png = try PNGCodec.encode(TestImages.pattern(width: 75, height: 75, seed: 4))
        let origin = GatedCountingOrigin(body: png)
        origin.release()
        let cache = ThumbnailCache(cacheDirectory: folder.url, origin: origin)
        let record = photo("7", square: "http://example.invalid/served.png")
        guard case let .missing(miss) = cache.lookUpImage(for: record) else {
            Issue.record("an empty cache has the image")
            return
        }
        let fetched = DispatchSemaphore(value: 0)
        let answer = Locked<Result<CachedImage, ThumbnailError>?>(nil)
        cache.fetch(miss, queue: .global()) { result in
            answer.withLock { $0 = result }
            fetched.signal()
        }
        fetched.wait()
        let image = try #require(try answer.withLock { $0 }?.get())
        guard case let .bytes(bytes) = image.contents else {
            Issue.record("the fetched image was opened from disk")
            return
        }
        #expect(bytes == png && image.bytes == png.count && image.format == .png)
        guard case let .cached(hit) = cache.lookUpImage(for: record), case .file = hit.contents else {
            Issue.record("the stored image is no hit")
            return
        }
        #expect(hit.name == image.name && hit.bytes == png.count)
        #expect(origin.fetches == 1)
    }

    @Test(
        "nothing bad is kept: truncated, short, corrupt, HTML with 200, 404, 503, reset, stalled, file://",
        arguments: [
            "truncate", "short", "corrupt", "html200", "status404", "status503", "reset", "stall",
            "redirect-file",
        ])
    func badAnswersAreNotStored(scenario: String) async throws {
        let result = await square(cache, photo("1", square: images.url("/\(scenario)/square-3.png")))
        #expect(throws: ThumbnailError.self) { try result.get() }
        #expect(cache.statistics().entries == 0)
        #expect(strayFiles().isEmpty)
    }

    @Test(
        "the error says what was wrong",
        arguments: [
            ("html200", "it looks like HTML"), ("status404", "HTTP 404"), ("truncate", "curl error 18"),
            ("short", "not a valid image"), ("redirect-file", "curl error 1"),
        ])
    func errorMessages(scenario: String, fragment: String) async {
        let result = await square(cache, photo("1", square: images.url("/\(scenario)/square-4.png")))
        guard case let .failure(error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.description.contains(fragment), "\(error)")
    }

    @Test(
        "a file:// or ftp:// square is refused without any fetch",
        arguments: ["file:///etc/passwd", "ftp://127.0.0.1/a.png", "not a url"])
    func nonHTTP(url: String) async {
        #expect(await square(cache, photo("1", square: url)) == .failure(.unsupportedURL(url)))
    }

    @Test("a bad answer once does not poison the entry: the next request fetches it properly")
    func recoversAfterBadAnswer() async throws {
        let url = images.url("/once-bad/\(UUID().uuidString)/square-5.png")
        await #expect(throws: ThumbnailError.self) { try await square(cache, photo("1", square: url)).get() }
        let file = try await square(cache, photo("1", square: url)).get()
        #expect(try PNGCodec.decode(Data(contentsOf: file)).width == 75)
    }

    @Test("JPEG squares are checked and kept; truncated JPEGs are not")
    func jpeg() async throws {
        let file = try await square(cache, photo("1", square: images.url("/ok/photo-1.jpg"))).get()
        #expect(try JPEGCodec.decode(Data(contentsOf: file)).width == 75)
        await #expect(throws: ThumbnailError.self) {
            try await square(cache, photo("2", square: images.url("/short/photo-2.jpg"))).get()
        }
        #expect(cache.statistics().entries == 1)
    }

    @Test(
        "with no square URL, the square is cropped from the larger image and stored as PNG",
        arguments: ["large-1.png", "big-1.jpg"])
    func derivedSquare(name: String) async throws {
        let record = Photo(
            id: "1",
            images: [.medium: ImageReference(url: images.url("/ok/\(name)"), width: 240, height: 180)])
        let file = try await cache.result(for: record, size: .square).get()
        let image = try PNGCodec.decode(Data(contentsOf: file))
        #expect(image.width == 75 && image.height == 75)
        let large = try await cache.result(for: record, size: .largeSquare).get()
        #expect(try PNGCodec.decode(Data(contentsOf: large)).width == 150)
        #expect(large != file)
    }

    @Test("a record without any image URL is an error naming the photo")
    func noImage() async {
        #expect(await square(cache, Photo(id: "42")) == .failure(.noImage(photoID: "42")))
    }

    @Test("a cached file damaged on disk is a miss, and is replaced")
    func damagedEntry() async throws {
        let url = images.url("/ok/square-6.png")
        let file = try await square(cache, photo("1", square: url)).get()
        let original = try Data(contentsOf: file)
        try original.prefix(original.count / 2).write(to: file)
        let again = try await square(cache, photo("1", square: url)).get()
        #expect(try Data(contentsOf: again) == original)
        #expect(try images.count(of: "/ok/square-6.png") == 2)
    }

    @Test("a cached file damaged in the middle fails its full decode on use, and is replaced")
    func damagedInTheMiddle() async throws {
        let url = images.url("/ok/square-9.png")
        let file = try await square(cache, photo("1", square: url)).get()
        let original = try Data(contentsOf: file)
        var damaged = original
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: file)
        let again = try await square(cache, photo("1", square: url)).get()
        #expect(try Data(contentsOf: again) == original)
        #expect(try images.count(of: "/ok/square-9.png") == 2)
    }

    @Test("an image with bytes after its end is stored without them, so it is a hit next time")
    func trailingBytes() async throws {
        let name = "trailing-\(UUID().uuidString).jpg"
        let jpeg = try JPEGCodec.encode(TestImages.pattern(width: 75, height: 75, seed: 9))
        try (jpeg + Data("garbage after the end".utf8)).write(to: TestImages.folder.appendingPathComponent(name))
        let file = try await square(cache, photo("1", square: images.url("/ok/\(name)"))).get()
        #expect(try Data(contentsOf: file) == jpeg)
        _ = try await square(cache, photo("1", square: images.url("/ok/\(name)"))).get()
        #expect(try images.count(of: "/ok/\(name)") == 1)
    }

    @Test("a square URL whose image claims a huge size is refused before it is decoded")
    func hugeSquare() async throws {
        let name = "huge-\(UUID().uuidString).png"
        try PNGCodec.encode(TestImages.pattern(width: 400, height: 400, seed: 1)).write(
            to: TestImages.folder.appendingPathComponent(name))
        let result = await square(cache, photo("1", square: images.url("/ok/\(name)")))
        guard case .failure(.invalidImage(_, .implausibleSize(400, 400))) = result
        else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test("verify decodes every entry, removes the corrupt ones and counts them")
    func verify() async throws {
        let good = try await square(cache, photo("1", square: images.url("/ok/square-7.png"))).get()
        let bad = try await square(cache, photo("2", square: images.url("/ok/square-8.png"))).get()
        var bytes = try Data(contentsOf: bad)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: bad)
        let report = cache.verify()
        #expect(report.entries == 1 && report.corrupt == 1)
        #expect(FileManager.default.fileExists(atPath: good.path))
        #expect(!FileManager.default.fileExists(atPath: bad.path))
    }

    @Test("the LRU limit evicts the least recently used entries down to about 70%")
    func lruEviction() async throws {
        let entrySize = try Data(contentsOf: TestImages.folder.appendingPathComponent("square-10.png")).count
        let limited = ThumbnailCache(
            cacheDirectory: folder.url, origin: HTTPImageOrigin(retryPolicy: .never),
            configuration: .init(limitBytes: entrySize * 4 + entrySize / 2))
        var files: [URL] = []
        for index in 10..<14 {
            files.append(
                try await limited.result(
                    for: photo(
                        "\(index)",
                        square: images.url("/ok/square-\(index).png"))
                ).get())
        }
        // Stored in order, 10 oldest … 13 newest; then 10 is used again, so 11 becomes the oldest.
        _ = try await limited.result(for: photo("10", square: images.url("/ok/square-10.png"))).get()
        _ = try await limited.result(for: photo("14", square: images.url("/ok/square-14.png"))).get()
        // Eviction runs on the journal's queue, off the request path: wait for it.
        limited.flush()
        let remaining = Set(limited.store.entries().map(\.url.lastPathComponent))
        #expect(remaining.count == 3, "5 entries exceed the limit; the sweep keeps at most 70% of it (3 entries)")
        #expect(remaining.contains(files[0].lastPathComponent), "used again: kept")
        #expect(!remaining.contains(files[1].lastPathComponent), "least recently used: evicted")
        #expect(!remaining.contains(files[2].lastPathComponent))
    }

    @Test("an entry stored and used again before the journal's next write keeps the later use in the LRU order")
    func storedAndUsedInOneBatch() throws {
        let store = DiskStore(root: folder.url.appendingPathComponent("thumbs"))
        let journal = CacheJournal(store: store, limitBytes: 1 << 30, warn: { _ in })
        let (first, second) = (String(repeating: "a", count: 64), String(repeating: "b", count: 64))
        for name in [first, second] {
            try store.write(Data(count: 100), named: name)
            journal.noteStored(name, bytes: 100)
        }
        journal.noteUsed(first, bytes: 100)
        journal.writeAll()
        let removed = journal.queue.sync { journal.evict(downTo: 100) }
        #expect(removed.entries == 1)
        #expect(FileManager.default.fileExists(atPath: store.path(named: first)), "used last: kept")
        #expect(!FileManager.default.fileExists(atPath: store.path(named: second)))
    }

    @Test("a use an earlier run noted within the minute stands; an older one is noted again, with the entry's time")
    func usesNotedOncePerMinute() async throws {
        let first = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin(retryPolicy: .never))
        var files: [URL] = []
        for index in 10..<13 {
            let square = photo("\(index)", square: images.url("/ok/square-\(index).png"))
            files.append(try await first.result(for: square).get())
        }
        first.flush()
        let modified = { (file: URL) throws -> Date in
            try #require(FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        }
        // Given: 10's use was last noted two minutes ago, 11's ten seconds ago (set here, not left to when
        // it was stored: under a sanitizer on a busy machine, the stores above can outlast the minute).
        let longAgo = Date().addingTimeInterval(-120)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: files[0].path)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-10)],
            ofItemAtPath: files[1].path)
        let storedAt = try modified(files[1])
        // When: another run uses 10 and 11.
        let second = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin(retryPolicy: .never))
        for index in 10..<12 {
            _ = try await second.result(for: photo("\(index)", square: images.url("/ok/square-\(index).png"))).get()
        }
        second.flush()
        // Then: 10's use is noted (and its time set), 11's is not: 11 is now the least recently used.
        #expect(try modified(files[0]).timeIntervalSince(longAgo) > 60)
        #expect(try modified(files[1]) == storedAt)
        let total = second.statistics().bytes
        second.prune(downTo: total - 1)
        let remaining = Set(second.store.entries().map(\.url.lastPathComponent))
        #expect(remaining == [files[0].lastPathComponent, files[2].lastPathComponent])
    }

    @Test("prune and clear empty the cache as asked")
    func pruneAndClear() async throws {
        for index in 20..<24 {
            _ = try await square(cache, photo("\(index)", square: images.url("/ok/square-\(index).png"))).get()
        }
        let removed = cache.prune(downTo: 1)
        #expect(removed.entries == 4)
        _ = try await square(cache, photo("30", square: images.url("/ok/square-30.png"))).get()
        #expect(cache.clear() == 1)
        #expect(cache.statistics().entries == 0)
    }

    @Test("a cache another process cleared meanwhile still finds what is stored again: hits open the new shard folder")
    func clearedByAnotherProcess() async throws {
        let url = images.url("/ok/square-31.png")
        let file = try await square(cache, photo("1", square: url)).get()
        #expect(cache.cachedFile(for: photo("1", square: url)) == file)
        // Another process (its own cache object) clears the folder, so the shard folder this one holds
        // open is removed, and stores the square again in a new folder of the same name.
        let other = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin(retryPolicy: .never))
        #expect(other.clear() == 1)
        #expect(cache.cachedFile(for: photo("1", square: url)) == nil)
        #expect(try await square(other, photo("1", square: url)).get() == file)
        #expect(cache.cachedFile(for: photo("1", square: url)) == file)
        #expect(try await square(cache, photo("1", square: url)).get() == file)
        #expect(try images.count(of: "/ok/square-31.png") == 2)
    }

    @Test("hits and misses add up across runs")
    func statisticsPersist() async throws {
        _ = try await square(cache, photo("1", square: images.url("/ok/square-40.png"))).get()
        _ = try await square(cache, photo("1", square: images.url("/ok/square-40.png"))).get()
        cache.flush()
        let later = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin())
        _ = try await later.result(for: photo("1", square: images.url("/ok/square-40.png"))).get()
        later.flush()
        let stats = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin()).statistics()
        #expect(stats.hits == 2 && stats.misses == 1)
    }

    @Test("stats come from the journal; a process that died before recording its stores is reconciled by the next")
    func journalReconciles() async throws {
        let file = try await square(cache, photo("1", square: images.url("/ok/square-41.png"))).get()
        cache.flush()
        #expect(cache.statistics().entries == 1)
        // A store the journal never heard of, as if its process was killed right after the rename,
        // with that process's marker left behind, unlocked.
        let orphan = cache.store.file(named: String(repeating: "ab", count: 32))
        try FileManager.default.createDirectory(
            at: orphan.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try Data(contentsOf: file).write(to: orphan)
        let sessions = cache.directory.appendingPathComponent(".sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        try Data().write(to: sessions.appendingPathComponent("12345-dead"))
        let next = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin())
        let stats = next.statistics()
        #expect(stats.entries == 2)
        #expect(stats.bytes == 2 * (try Data(contentsOf: file).count))
        // The dead process's marker is gone; the live one's (this cache's) stays.
        #expect(!FileManager.default.fileExists(atPath: sessions.appendingPathComponent("12345-dead").path))
        // A file removed behind the cache's back is dropped by verify.
        try FileManager.default.removeItem(at: orphan)
        #expect(next.verify().entries == 1)
        #expect(next.statistics().entries == 1)
    }

    @Test(
        "a process keeps one marker, saying whether stores are pending; a dead one's marker saying none costs no reconcile"
    )
    func markerSaysPending() async throws {
        var stored: [URL] = []
        for index in 0..<3 {
            stored.append(
                try await square(cache, photo("\(index)", square: images.url("/ok/square-4\(index + 2).png"))).get())
            cache.flush()
        }
        let sessions = cache.directory.appendingPathComponent(".sessions")
        let markers = try FileManager.default.contentsOfDirectory(atPath: sessions.path)
        #expect(markers.count == 1)
        #expect(try Data(contentsOf: sessions.appendingPathComponent(markers[0])) == Data("0".utf8))
        // An unrecorded file, and a dead process's marker that said nothing was pending: left unreconciled
        // (`cache verify` finds it), and the marker removed.
        let orphan = cache.store.file(named: String(repeating: "cd", count: 32))
        try FileManager.default.createDirectory(
            at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contentsOf: stored[0]).write(to: orphan)
        try Data("0".utf8).write(to: sessions.appendingPathComponent("12345-clean"))
        let next = ThumbnailCache(cacheDirectory: folder.url, origin: HTTPImageOrigin())
        #expect(next.statistics().entries == 3)
        #expect(!FileManager.default.fileExists(atPath: sessions.appendingPathComponent("12345-clean").path))
        #expect(next.verify().entries == 4)
    }

    @Test("the async API gives the file, and a cancelled task gets .cancelled while the download goes on")
    func asyncAPI() async throws {
        let origin = GatedCountingOrigin(body: try PNGCodec.encode(TestImages.pattern(width: 75, height: 75, seed: 4)))
        let slow = ThumbnailCache(cacheDirectory: folder.url, origin: origin)
        let record = photo("1", square: "http://example.invalid/async.png")
        let cancelled = Task { await slow.result(for: record) }
        let kept = Task { await slow.result(for: record) }
        while origin.fetches == 0 { try await Task.sleep(for: .milliseconds(5)) }
        cancelled.cancel()
        #expect(await cancelled.value == .failure(.cancelled))
        origin.release()
        #expect(try PNGCodec.decode(Data(contentsOf: try await kept.value.get())).width == 75)
        #expect(origin.fetches == 1)
    }

    @Test("prefetch reports rising progress ending at the total, and the failures by photo")
    func prefetch() async throws {
        let photos =
            (50..<80).map { photo("\($0)", square: images.url("/ok/square-\($0).png")) }
            + [photo("bad", square: images.url("/status404/square-1.png"))]
        let done = DispatchSemaphore(value: 0)
        let seen = Outcomes()
        let reportBox = Outcomes()
        let run = cache.startPrefetch(
            queue: DispatchQueue(label: "test.progress"),
            progress: { progress in
                seen.append(progress.done)
            },
            completion: { reports in
                reportBox.report = reports.first
                done.signal()
            })
        run.add(photos)
        run.finish()
        done.wait()
        let report = try #require(reportBox.report)
        #expect(report.total == 31 && report.succeeded == 30)
        #expect(report.failures.map(\.photoID) == ["bad"])
        #expect(seen.values.last == 31)
        #expect(seen.values == seen.values.sorted())
    }

    @Test("a prefetch fed as a listing arrives reports once, after the last photo added and its finish")
    func prefetchRun() async throws {
        let done = DispatchSemaphore(value: 0)
        let seen = Outcomes()
        let reports = Locked<[PrefetchReport]>([])
        let run = cache.startPrefetch(
            queue: DispatchQueue(label: "test.progress"),
            progress: { progress in
                seen.append(progress.done)
            },
            completion: { sizes in
                reports.withLock { $0 += sizes }
                done.signal()
            })
        // JPEG squares under paths no other test asks for: the image server's counts are shared.
        func jpegSquare(_ index: Int) -> Photo { photo("\(index)", square: images.url("/ok/photo-\(index).jpg")) }
        run.add((100..<110).map(jpegSquare))
        // The first page's squares may all be answered before the next page comes: that is no end.
        try await Task.sleep(for: .milliseconds(200))
        #expect(reports.withLock { $0.isEmpty })
        run.add((110..<125).map(jpegSquare))
        run.add([Photo]())
        run.finish()
        done.wait()
        try await Task.sleep(for: .milliseconds(100))
        let report = try #require(reports.withLock { $0.count == 1 ? $0.first : nil }, "one report")
        #expect(report.total == 25 && report.succeeded == 25 && report.failures.isEmpty)
        #expect(seen.values.last == 25)
        #expect((100..<125).allSatisfy { cache.cachedFile(for: jpegSquare($0)) != nil })

        // A listing that brought nothing: the report comes at once.
        let empty = cache.startPrefetch(
            queue: .global(), progress: { _ in },
            completion: { sizes in
                reports.withLock { $0 += sizes }
                done.signal()
            })
        empty.finish()
        done.wait()
        #expect(reports.withLock { $0.last?.total } == 0)
    }

    @Test("a prefetch of squares and medium images asks for both of each photo, counts both, and reports each size")
    func prefetchSizes() async throws {
        let photos = (130..<140).map { index in
            Photo(
                id: "\(index)",
                images: [
                    .square: ImageReference(url: images.url("/ok/photo-\(index).jpg"), width: 75, height: 75),
                    .medium: ImageReference(
                        url: images.url(index == 139 ? "/status404/big-139.jpg" : "/ok/big-\(index).jpg")),
                ])
        }
        let done = DispatchSemaphore(value: 0)
        let seen = Outcomes()
        let reports = Locked<[PrefetchReport]>([])
        let run = cache.startPrefetch(
            sizes: [.square, .medium], queue: DispatchQueue(label: "test.progress"),
            progress: { seen.append($0.done) },
            completion: { sizes in
                reports.withLock { $0 = sizes }
                done.signal()
            })
        run.add(photos[..<4])
        run.add(photos[4...])
        run.finish()
        done.wait()
        let (square, medium) = try #require(reports.withLock { $0.count == 2 ? ($0[0], $0[1]) : nil })
        #expect(square.size == .square && square.total == 10 && square.succeeded == 10 && square.failures.isEmpty)
        #expect(medium.size == .medium && medium.total == 10 && medium.succeeded == 9)
        #expect(medium.failures.map(\.photoID) == ["139"])
        #expect(seen.values.last == 20)
        #expect(photos.allSatisfy { cache.cachedFile(for: $0, size: .medium) != nil || $0.id == "139" })
    }

    @Test("a cache folder that cannot be written is an error the caller sees")
    func unwritableFolder() async throws {
        try Data("not a folder".utf8).write(to: folder.url.appendingPathComponent("thumbs"))
        let result = await square(cache, photo("1", square: images.url("/ok/square-60.png")))
        guard case let .failure(.writeFailed(path, reason)) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(path.hasPrefix(folder.url.path))
        #expect(!reason.isEmpty)
    }

    @Test(
        "a full disk (ENOSPC on a tiny tmpfs) is reported as such, and leaves no partial file",
        .enabled(if: TinyDisk.canMount, "needs root to mount a tmpfs"))
    func diskFull() async throws {
        let disk = try TinyDisk(kilobytes: 64)
        let (failures, corrupt) = await fill(disk.url)
        #expect(failures.contains { if case .diskFull = $0 { true } else { false } })
        #expect(corrupt == 0)
        // The cache (its journal and lock file open on the disk) is gone before the disk is unmounted.
        withExtendedLifetime(disk) {}
    }

    /// Fetches medium images into a cache in `folder` until it is full: the failures, and the corrupt
    /// entries `verify` then finds.
    private func fill(_ folder: URL) async -> ([ThumbnailError], Int) {
        let full = ThumbnailCache(cacheDirectory: folder, origin: HTTPImageOrigin(retryPolicy: .never))
        var failures: [ThumbnailError] = []
        for index in 100..<160 {
            let medium = Photo(
                id: "\(index)",
                images: [.medium: ImageReference(url: images.url("/ok/large-\(index).png"))])
            if case let .failure(error) = await full.result(for: medium, size: .medium) {
                failures.append(error)
            }
        }
        return (failures, full.verify().corrupt)
    }
}

/// Results collected from callbacks on other threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: Result<URL, ThumbnailError>] = [:]
    private var stored: PrefetchReport?
    private var progress: [Int] = []
    func append(_ done: Int) { lock.withLock { progress.append(done) } }
    var values: [Int] { lock.withLock { progress } }
    func add(_ index: Int, _ result: Result<URL, ThumbnailError>) { lock.withLock { results[index] = result } }
    func result(_ index: Int) -> Result<URL, ThumbnailError>? { lock.withLock { results[index] } }
    var count: Int { lock.withLock { results.count } }
    var report: PrefetchReport? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation

extension ThumbnailCache {
    /// The entry locks, opened by the first download (so that reading a cache creates nothing).
    private func entryLocks() throws(ThumbnailError) -> EntryLocks {
        try state.withLock { state throws(ThumbnailError) in
            if let locks = state.locks { return locks }
            let file = store.root.appendingPathComponent(".fetching.lock")
            try store.createFolder(of: file)
            let locks = try EntryLocks(path: file.path, warn: configuration.warn)
            state.locks = locks
            return locks
        }
    }

    /// Starts queued downloads while fewer than `maximumDownloadsInProgress` are in progress.
    func startQueuedDownloads() {
        let starting = state.withLock { state -> [(String, Download)] in
            var starting: [(String, Download)] = []
            while state.inProgress < configuration.maximumDownloadsInProgress, let key = state.queued.popFirst() {
                guard let download = state.inFlight[key] else { continue }
                state.inProgress += 1
                starting.append((key, download))
            }
            return starting
        }
        for (key, download) in starting { begin(key, download) }
    }

    /// Takes the entry's cross-process lock (waiting on a timer while another process fetches it),
    /// then fetches unless that process stored it meanwhile. Downloads settled here are settled on the
    /// pool: settling starts the next download, which must not recurse through this call.
    private func begin(
        _ key: String, _ download: Download, waitingSince: DispatchTime = .now(),
        pause: Double = 0.001
    ) {
        let name = download.name
        let locks: EntryLocks, attempt: EntryLocks.Attempt
        do {
            locks = try entryLocks()
            attempt = try locks.tryLock(name)
        } catch {
            return pool.submit { [self] in finish(key, .failed(error)) }
        }
        if attempt == .heldElsewhere,
            DispatchTime.now().uptimeNanoseconds - waitingSince.uptimeNanoseconds
                < UInt64(EntryLocks.patience * 1e9)
        {
            return DispatchQueue.global().asyncAfter(deadline: .now() + pause) { [self] in
                begin(key, download, waitingSince: waitingSince, pause: min(pause * 2, 0.05))
            }
        }
        // Past its patience, a download goes ahead without the lock: at worst the image comes twice.
        let locked = attempt == .acquired
        if let bytes = store.openWholeImage(named: download.name)?.bytes {
            if locked { locks.unlock(name) }
            return pool.submit { [self] in finish(key, .storedByAnotherProcess(bytes: bytes)) }
        }
        origin.fetch(download.source.url) { [self] result in
            pool.submit { [self] in
                let outcome = store(result, as: download)
                if locked { locks.unlock(name) }
                finish(key, outcome)
            }
        }
    }

    /// Settles a download with everyone waiting for it, and starts the next one.
    private func finish(_ key: String, _ outcome: DownloadOutcome) {
        let download = state.withLock { state in
            state.inProgress -= 1
            return state.inFlight.removeValue(forKey: key)
        }
        switch outcome {
        case let .stored(bytes):
            if let download { journal.noteStored(download.name, bytes: bytes.count) }
            count(Counters(misses: 1, downloads: 1), "miss, fetched", key)
        case let .storedByAnotherProcess(bytes):
            if let download { journal.noteUsed(download.name, bytes: bytes) }
            count(Counters(hits: 1), "hit (stored by another process meanwhile)", key)
        case .failed:
            count(Counters(misses: 1, failures: 1), "miss, could not be fetched", key)
        }
        if let download {
            let result: Result<Delivered, ThumbnailError> =
                outcome.error.map { .failure($0) }
                ?? .success(Delivered(path: download.path, name: download.name, bytes: outcome.stored))
            for waiter in download.waiters.values { deliver(result, to: waiter) }
        }
        startQueuedDownloads()
    }

    /// One image being fetched, and everyone waiting for it.
    struct Download: Sendable {
        let source: ThumbnailSource
        /// The entry's name (`SHA256.hex(key)`) and path.
        let name: String
        let path: String
        var waiters: [Int: Waiter]
    }

    /// How a download ended: stored by this process, found stored by another, or failed.
    enum DownloadOutcome {
        case stored(Data)
        case storedByAnotherProcess(bytes: Int)
        case failed(ThumbnailError)

        var error: ThumbnailError? {
            if case let .failed(error) = self { return error }
            return nil
        }

        /// The bytes stored by this process.
        var stored: Data? {
            if case let .stored(bytes) = self { return bytes }
            return nil
        }
    }
}

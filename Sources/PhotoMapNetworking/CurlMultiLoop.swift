// SPDX-License-Identifier: Apache-2.0
import CCurl
import Foundation
import PhotoMapSupport

/// One libcurl multi handle driven by one thread of its own (`curl_multi_poll`): every transfer
/// submitted runs there, none blocks a thread. HTTP/2 is multiplexed where TLS's ALPN offers it
/// (`CURLPIPE_MULTIPLEX`, many streams on one connection); connections stay in the multi handle's
/// cache for as long as the loop lives. Retries follow `RetryPolicy` exactly as the blocking client
/// does, but wait on the loop's clock instead of a sleeping thread.
///
/// Per host, the loop keeps at most `streamsPerConnection` transfers in flight over HTTP/2 and
/// `connectionsPerHost` over HTTP/1.1; the rest wait their turn in order (not inside libcurl, where
/// time spent waiting would count against their timeouts), retries first. A host that answers 429
/// or 503 with Retry-After gets nothing new until then: its whole queue waits, not only that transfer.
/// Until a host's first answer tells, an https host is taken to speak HTTP/2 (ALPN offers it;
/// `CURLOPT_PIPEWAIT` holds the first batch until the connection says whether it multiplexes) and a
/// plain http one HTTP/1.1.
package final class CurlMultiLoop: Sendable {
    /// How many connections and streams the loop may use.
    package struct Limits: Sendable {
        /// Connections to one host (HTTP/1.1 transfers in flight; `CURLMOPT_MAX_HOST_CONNECTIONS`).
        package var connectionsPerHost: Int
        /// Streams on one HTTP/2 connection (`CURLMOPT_MAX_CONCURRENT_STREAMS`).
        package var streamsPerConnection: Int

        /// Limits of `connectionsPerHost` connections and `streamsPerConnection` streams.
        package init(connectionsPerHost: Int, streamsPerConnection: Int) {
            self.connectionsPerHost = connectionsPerHost
            self.streamsPerConnection = streamsPerConnection
        }
    }

    /// Called once per transfer on the loop's thread: it must return quickly (hand work elsewhere).
    package typealias Completion = @Sendable (Result<HTTPResponse, HTTPError>) -> Void

    private let shared: Shared

    /// Starts the loop's thread.
    package init(limits: Limits) {
        shared = Shared()
        let thread = Thread { [shared] in
            EventLoop(shared: shared, limits: limits).run()
        }
        thread.name = "photomap.curl-multi"
        thread.start()
    }

    deinit {
        shared.inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(shared.multi)
    }

    /// Starts a GET of `request`; `completion` gets the 2xx response or the error after any retries.
    package func submit(_ request: CurlRequest, completion: @escaping Completion) {
        let host = EventLoop.host(of: request.url)
        let wakes = shared.inbox.withLock { inbox in
            inbox.submitted.append(Submission(request: request, host: host, completion: completion))
            // One wake-up until the loop takes the inbox, which it takes whole. A host with no room starts
            // nothing before one of its transfers ends, which wakes the loop anyway: one wake-up (a system
            // call and a turn of the loop) saved per image.
            guard !inbox.wakePending, !inbox.hostsWithoutRoom.contains(host) else { return false }
            inbox.wakePending = true
            return true
        }
        // Thread-safe by libcurl's contract: it interrupts the loop's curl_multi_poll, or its next one.
        if wakes { curl_multi_wakeup(shared.multi) }
    }

    /// A transfer asked for, before the loop took it.
    fileprivate struct Submission: Sendable {
        let request: CurlRequest
        /// "scheme://authority" (`EventLoop.host(of:)`).
        let host: String
        let completion: Completion
    }

    /// What the submitting threads and the loop share: the inbox behind its mutex, and the multi
    /// handle, which only the loop's thread uses except for `curl_multi_wakeup` (thread-safe).
    fileprivate final class Shared: @unchecked Sendable {
        struct Inbox {
            var submitted: [Submission] = []
            var stopping = false
            /// Hosts whose window is full (or paused) as the loop last went to wait: what is submitted
            /// for them needs no wake-up.
            var hostsWithoutRoom: Set<String> = []
            /// A wake-up was sent since the loop last took the inbox.
            var wakePending = false
        }

        let inbox = Locked(Inbox())
        let multi: UnsafeMutableRawPointer

        init() {
            _ = CurlEasy.globalInitialization
            // curl_multi_init fails only when out of memory, where nothing else would work either.
            guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
            self.multi = multi
        }

        deinit {
            curl_multi_cleanup(multi)
        }
    }
}

/// The loop's own state, touched only by its thread.
private final class EventLoop {
    /// A transfer waiting for its turn, running, or waiting to be retried.
    private struct Transfer {
        let submission: CurlMultiLoop.Submission
        var attempt = 1
        var host: String { submission.host }
    }

    private let shared: CurlMultiLoop.Shared
    private let limits: CurlMultiLoop.Limits
    private var waiting: [String: FIFO<Transfer>] = [:]
    private var running: [UnsafeMutableRawPointer: (easy: CurlEasy, transfer: Transfer)] = [:]
    private var inFlight: [String: Int] = [:]
    /// Whether each host answered over HTTP/2, once it has answered.
    private var speaksHTTP2: [String: Bool] = [:]
    private var retries: [(due: UInt64, transfer: Transfer)] = []
    /// Hosts that asked, with Retry-After, to be left alone until then (uptime nanoseconds).
    private var pausedUntil: [String: UInt64] = [:]
    private var idle: [CurlEasy] = []

    init(shared: CurlMultiLoop.Shared, limits: CurlMultiLoop.Limits) {
        self.shared = shared
        self.limits = limits
        let multi = shared.multi
        // Tuning, not guards: were one refused, transfers would still run, only fewer at once.
        photomap_curl_multi_set_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        photomap_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.connectionsPerHost)
        photomap_curl_multi_set_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, limits.streamsPerConnection)
    }

    func run() {
        while true {
            let (submitted, stopping) = shared.inbox.withLock { inbox in
                defer {
                    inbox.submitted.removeAll()
                    inbox.wakePending = false
                }
                return (inbox.submitted, inbox.stopping)
            }
            if stopping { return stop() }
            for submission in submitted {
                waiting[submission.host, default: FIFO()].append(Transfer(submission: submission))
            }
            moveDueRetries()
            admit()
            var stillRunning: Int32 = 0
            let performed = curl_multi_perform(shared.multi, &stillRunning)
            collectFinished()
            admit()
            // Published with a look at the inbox, under one lock: a submission that saw the older set and
            // sent no wake-up is still in the inbox, so the loop goes round instead of waiting.
            let full = hostsWithoutRoom()
            let arrived = shared.inbox.withLock { inbox in
                inbox.hostsWithoutRoom = full
                return !inbox.submitted.isEmpty
            }
            if arrived { continue }
            // Either fails only out of memory or on a broken multi handle: wait rather than spin.
            if performed != CURLM_OK
                || curl_multi_poll(shared.multi, nil, 0, pollTimeout(), nil) != CURLM_OK
            {
                usleep(10_000)
            }
        }
    }

    /// Adds waiting transfers to the multi handle while their host has room.
    private func admit() {
        let now = DispatchTime.now().uptimeNanoseconds
        pausedUntil = pausedUntil.filter { $0.value > now }
        for host in Array(waiting.keys) where pausedUntil[host] == nil {
            var room = window(of: host) - inFlight[host, default: 0]
            // Taken out while it is drawn from, so the dictionary holds no second reference: a queue of
            // thousands is never copied, and each transfer leaves it in constant time.
            guard room > 0, var queue = waiting.removeValue(forKey: host) else { continue }
            while room > 0, let transfer = queue.popFirst() {
                start(transfer)
                room -= 1
            }
            if !queue.isEmpty { waiting[host] = queue }
        }
    }

    /// Transfers a host may have in flight: its streams over HTTP/2, its connections otherwise.
    private func window(of host: String) -> Int {
        (speaksHTTP2[host] ?? host.hasPrefix("https:")) ? limits.streamsPerConnection : limits.connectionsPerHost
    }

    /// Hosts that can start nothing now: paused, or with their window full.
    private func hostsWithoutRoom() -> Set<String> {
        Set(pausedUntil.keys).union(inFlight.filter { $0.value >= window(of: $0.key) }.keys)
    }

    private func start(_ transfer: Transfer) {
        let easy = idle.popLast() ?? CurlEasy()
        do {
            try easy.prepare(transfer.submission.request)
        } catch {
            idle.append(easy)
            return transfer.submission.completion(.failure(error))
        }
        guard curl_multi_add_handle(shared.multi, easy.handle) == CURLM_OK else {
            idle.append(easy)
            return transfer.submission.completion(
                .failure(
                    .transport(
                        code: -1, message: "libcurl could not start the transfer",
                        url: HTTPError.redacted(transfer.submission.request.url))))
        }
        running[easy.handle] = (easy, transfer)
        inFlight[transfer.host, default: 0] += 1
    }

    /// Settles every transfer libcurl says is done: a final answer, or a retry on the loop's clock.
    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(shared.multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let (easy, transfer) = running.removeValue(forKey: handle)
            else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(shared.multi, handle)
            inFlight[transfer.host, default: 1] -= 1
            let outcome = easy.outcome(code)
            if case let .success(response) = outcome { speaksHTTP2[transfer.host] = response.isHTTP2 }
            idle.append(easy)
            let policy = transfer.submission.request.settings.retryPolicy
            switch policy.decide(outcome, attempt: transfer.attempt, url: transfer.submission.request.url) {
            case let .finish(result):
                transfer.submission.completion(result)
            case let .retry(after: delay):
                var again = transfer
                again.attempt += 1
                let due = DispatchTime.now().uptimeNanoseconds + UInt64(max(delay, 0) * 1e9)
                retries.append((due, again))
                if case let .success(response) = outcome, response.retryAfter != nil {
                    pausedUntil[transfer.host] = max(pausedUntil[transfer.host] ?? 0, due)
                }
            }
        }
        // Keep no more idle handles than could ever run at once.
        if idle.count > limits.streamsPerConnection { idle.removeLast(idle.count - limits.streamsPerConnection) }
    }

    private func moveDueRetries() {
        guard !retries.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        // Retries were asked for first: they go ahead of what has waited since.
        for retry in retries.reversed() where retry.due <= now {
            waiting[retry.transfer.host, default: FIFO()].prepend(retry.transfer)
        }
        retries.removeAll { $0.due <= now }
    }

    /// Until the next retry or the end of a pause is due, at most a second; libcurl shortens it for
    /// its own timers.
    private func pollTimeout() -> Int32 {
        guard let due = (retries.map(\.due) + pausedUntil.values).min() else { return 1_000 }
        let now = DispatchTime.now().uptimeNanoseconds
        return Int32(min(due > now ? (due - now) / 1_000_000 + 1 : 0, 1_000))
    }

    /// The owner is gone: nothing waits for these answers any more.
    private func stop() {
        for (handle, _) in running { curl_multi_remove_handle(shared.multi, handle) }
        running.removeAll()
    }

    /// "scheme://authority": transfers to one host share its connections.
    static func host(of url: String) -> String {
        // Byte offsets: "://" and "/" are ASCII, so the cut is always at a character boundary.
        let bytes = Array(url.utf8)
        var start = 0
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[colon...].starts(with: "://".utf8)
        {
            start = colon + 3
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self).lowercased()
    }
}

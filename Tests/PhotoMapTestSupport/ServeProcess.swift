// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport
import Testing

/// `photomap serve --listen 127.0.0.1:0` running as a user runs it, for the end-to-end tests: it
/// waits for the "serving http://127.0.0.1:PORT/" line, asks it things over HTTP, and stops it with
/// a signal, collecting what it wrote on stderr.
public final class ServeProcess: @unchecked Sendable {
    // Set once in init.
    public let port: Int
    private let process: Process
    // Written by the reader thread, which holds only this: were it to hold `self`, the process would
    // never be stopped by deinit, and every test would leave a server running.
    private let stderrText = Locked("")

    /// Starts `photomap [arguments] serve --listen LISTEN [serveArguments]` with `environment`
    /// (plus what `PhotomapBinary.environment` inherits).
    public init(
        _ arguments: [String] = [], listen: String = "127.0.0.1:0", serveArguments: [String] = [],
        environment: [String: String]
    ) throws {
        process = Process()
        process.executableURL = PhotomapBinary.url
        process.arguments = arguments + ["serve", "--listen", listen] + serveArguments
        process.environment = PhotomapBinary.environment(environment)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = errors.fileHandleForReading
        var found: Int?
        // The first lines until the URL, then the rest on a thread of its own.
        var pending = ""
        let deadline = Date().addingTimeInterval(60)
        while found == nil, case let left = deadline.timeIntervalSinceNow, left > 0 {
            // Read only what has come: a serve that hangs before its URL must not hold the test past the deadline.
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(left * 1_000) + 1) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending += String(decoding: chunk, as: UTF8.self)
            if let range = pending.range(of: #"serving http://[^/ ]+:(\d+)/"#, options: .regularExpression) {
                found = Int(pending[range].split(separator: ":").last?.dropLast() ?? "")
            }
        }
        stderrText.withLock { $0 = pending }
        guard let found else {
            process.terminate()
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSDebugDescriptionErrorKey: "photomap serve said: \(pending)"])
        }
        port = found
        Thread { [stderrText] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
    }

    /// A test that ends without `stop()`, or throws before it, still stops its server: SIGTERM, sent
    /// again each second until serve says "stopping" or exits, SIGKILL after 10 s. With one SIGTERM and
    /// no wait, 3 of the 10 servers of ServeRequestsEndToEndTests outlived its run on a loaded machine.
    deinit {
        let deadline = Date().addingTimeInterval(10)
        var resend = Date()
        while process.isRunning, !stderr.contains("stopping") {
            if Date() >= deadline {
                kill(process.processIdentifier, SIGKILL)
                return
            }
            if Date() >= resend {
                kill(process.processIdentifier, SIGTERM)
                resend = Date().addingTimeInterval(1)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// What it printed on stderr so far.
    public var stderr: String { stderrText.withLock { $0 } }

    /// The process id, for signals.
    public var processID: Int32 { process.processIdentifier }

    /// `GET path` (or another method) with `Host: 127.0.0.1:PORT` unless `headers` names another.
    public func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:],
        timeout: TimeInterval = 10
    ) throws -> RawHTTP.Answer {
        let fields = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { $1 }
        let head = fields.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try RawHTTP.send("\(method) \(path) HTTP/1.1\r\n\(head)\r\n", port: port, timeout: timeout)
    }

    /// How long `stop()` waits for the exit before it kills the server: serve's own stop takes at most its grace
    /// (3 s) and the answers' 5 s.
    public static let stopLimit: TimeInterval = 60

    /// Sends `signal` and waits for the exit; returns the exit status and how long it took. A server still
    /// running after `stopLimit` is killed and recorded as an issue: it fails its test, not CI's time.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> (status: Int32, seconds: TimeInterval) {
        let started = Date()
        kill(process.processIdentifier, signal)
        while process.isRunning {
            if Date().timeIntervalSince(started) > Self.stopLimit {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                Issue.record("serve did not stop within \(Self.stopLimit) s of signal \(signal); it said: \(stderr)")
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return (process.terminationStatus, Date().timeIntervalSince(started))
    }
}

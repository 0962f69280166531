// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapNetworking

/// A test server from Tests/Support (Python, or node for HTTP/2), started on 127.0.0.1 for the tests
/// that need it and stopped when the test process ends (it exits when its stdin closes).
public final class LoopbackServer: Sendable {
    /// The Flickr-protocol server over the embedded catalog; scenarios are chosen by URL, so tests share it.
    public static let flickr = start(
        "flickr_server.py",
        ["--catalog", repositoryRoot.appendingPathComponent("Fixtures/catalog").path])

    /// The image server with faults (`/{scenario}/{path}`) over `TestImages.folder`.
    public static let images = start("image_server.py", ["--root", TestImages.folder.path])

    /// The image server with faults over the embedded catalog's images (Fixtures/images): with
    /// `--image-host {url("/ok")}` the catalog's squares come from it, counted.
    public static let catalogImages = start(
        "image_server.py",
        ["--root", repositoryRoot.appendingPathComponent("Fixtures/images").path])

    /// The HTTP/2 image server over TLS with faults (`/{scenario}/{path}`, HTTP/1.1 too when asked by
    /// ALPN) over `TestImages.folder`, its certificate signed by `TestCA`.
    public static let http2Images = start(
        "h2_image_server.js",
        [
            "--root", TestImages.folder.path, "--cert", TestCA.server.path,
            "--key", TestCA.key.path,
        ], interpreter: "node", scheme: "https")

    /// The folder holding Package.swift.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The port it listens on.
    public let port: Int
    /// "http", or "https" for the TLS server.
    public let scheme: String
    private let process: Process
    // Kept open so the server lives until the test process ends.
    private let input: Pipe

    private static func start(
        _ script: String, _ arguments: [String], interpreter: String = "python3",
        scheme: String = "http"
    ) -> LoopbackServer {
        do {
            return try LoopbackServer(script: script, arguments: arguments, interpreter: interpreter, scheme: scheme)
        } catch {
            fatalError("cannot start \(script): \(error)")
        }
    }

    private init(script: String, arguments: [String], interpreter: String, scheme: String) throws {
        self.scheme = scheme
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [interpreter, Self.repositoryRoot.appendingPathComponent("Tests/Support/\(script)").path]
            + arguments + ["--port", "0"]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "\(script) said '\(text)'"])
        }
        self.port = port
    }

    /// `{scheme}://127.0.0.1:{port}{path}`.
    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// The Flickr REST endpoint under a scenario prefix ("" for normal behaviour, "fail100", "status/503/TOKEN/1", …).
    public func endpoint(_ scenario: String = "") -> String {
        url((scenario.isEmpty ? "" : "/" + scenario) + "/services/rest/")
    }

    /// The Flickr requests the server received whose query carries `marker` as a parameter value.
    public func requests(where marker: (key: String, value: String)) throws -> [[String: String]] {
        let log = try JSONSerialization.jsonObject(with: get("/_requests")) as? [[String: Any]] ?? []
        return log.compactMap { $0["query"] as? [String: String] }.filter { $0[marker.key] == marker.value }
    }

    /// When the server received each Flickr request carrying `marker` (seconds since 1970), in order.
    public func times(where marker: (key: String, value: String)) throws -> [Double] {
        let log = try JSONSerialization.jsonObject(with: get("/_requests")) as? [[String: Any]] ?? []
        return log.filter { ($0["query"] as? [String: String])?[marker.key] == marker.value }.compactMap {
            $0["time"] as? Double
        }.sorted()
    }

    /// How many times the image server was asked for `path` (scenario included).
    public func count(of path: String) throws -> Int {
        let answer = try JSONSerialization.jsonObject(with: get("/_count?path=" + path)) as? [String: Any]
        return answer?["count"] as? Int ?? -1
    }

    private func get(_ path: String) throws -> Data {
        try HTTPClient(settings: HTTPSettings(retryPolicy: .never, caBundle: TestCA.certificate.path)).get(url(path))
            .body
    }
}

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A throwaway certificate authority and a certificate for 127.0.0.1 it signed, made once per test
/// process by Tests/Support/make_test_ca.sh (openssl), for the TLS test server.
public enum TestCA {
    /// The folder holding ca.pem, server.pem and server.key.
    public static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "photomap-test-ca-\(ProcessInfo.processInfo.processIdentifier)")
        let make = Process()
        make.executableURL = LoopbackServer.repositoryRoot.appendingPathComponent("Tests/Support/make_test_ca.sh")
        make.arguments = [folder.path]
        do {
            try make.run()
        } catch {
            fatalError("cannot make the test CA: \(error)")
        }
        make.waitUntilExit(within: 120, "make_test_ca.sh")
        guard make.terminationStatus == 0 else { fatalError("make_test_ca.sh failed (is openssl installed?)") }
        return folder
    }()

    /// The CA's certificate: what clients trust.
    public static var certificate: URL { folder.appendingPathComponent("ca.pem") }
    /// The server's certificate and key.
    public static var server: URL { folder.appendingPathComponent("server.pem") }
    public static var key: URL { folder.appendingPathComponent("server.key") }
}

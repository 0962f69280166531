import Foundation
import PhotoMapKit

/// The Flickr-protocol server in Tests/Support/flickr_server.py, started on 127.0.0.1 for the tests
/// that need it and stopped when the test process ends (it exits when its stdin closes).
public final class FlickrTestServer: Sendable {
    /// One server for the whole test process; scenarios are chosen by URL, so tests can share it.
    public static let shared: FlickrTestServer = {
        do {
            return try FlickrTestServer()
        } catch {
            fatalError("cannot start the Flickr test server: \(error)")
        }
    }()

    /// The folder holding Package.swift.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public let port: Int
    private let process: Process
    // Kept open so the server lives until the test process ends.
    private let input: Pipe

    private init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repositoryRoot.appendingPathComponent("Tests/Support/flickr_server.py").path,
                             "--catalog", Self.repositoryRoot.appendingPathComponent("Fixtures/catalog").path, "--port", "0"]
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
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "server said '\(text)'"])
        }
        self.port = port
    }

    /// The REST endpoint under a scenario prefix ("" for normal behaviour, "fail100", "status/503/TOKEN/1", …).
    public func endpoint(_ scenario: String = "") -> String {
        "http://127.0.0.1:\(port)" + (scenario.isEmpty ? "" : "/" + scenario) + "/services/rest/"
    }

    /// The requests the server received whose query carries `marker` as a parameter value.
    public func requests(where marker: (key: String, value: String)) throws -> [[String: String]] {
        let data = try HTTPClient(retryPolicy: .never).get("http://127.0.0.1:\(port)/_requests").body
        let log = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return log.compactMap { $0["query"] as? [String: String] }.filter { $0[marker.key] == marker.value }
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

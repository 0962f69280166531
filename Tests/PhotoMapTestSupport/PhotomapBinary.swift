import Foundation

/// Runs the built `photomap` executable as a user would, capturing what it prints and its exit status.
public enum PhotomapBinary {
    /// What one run printed and returned.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The executable beside the test bundle (swift build puts all products in one folder).
    public static let url: URL = {
        let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = productsFolder.appendingPathComponent("photomap")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return LoopbackServer.repositoryRoot.appendingPathComponent(".build/debug/photomap")
    }()

    /// Runs `photomap arguments…` in `folder` with only the given environment (plus PATH and HOME),
    /// so the developer's own FLICKR_API_KEY or cache never leaks into a test.
    public static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let inherited = ProcessInfo.processInfo.environment
        process.environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
            .merging(environment) { $1 }
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs so a large output cannot fill a pipe and stall it.
        let errorData = LockedData()
        let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { Thread.sleep(forTimeInterval: 0.005) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData.value, as: UTF8.self))
    }
}

/// Data handed from a reader thread to the test thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

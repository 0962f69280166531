// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport
import Testing

/// Runs the built photomap, spawned and reaped here (what `PhotomapBinary.run` runs too): its arguments
/// are raw bytes (invalid UTF-8 included, which Foundation's Process cannot pass), and the exit is
/// read with wait4, which also gives the run's peak memory (Process gives neither).
public enum MeasuredRun {
    /// How one run ended.
    public struct Result: Sendable {
        /// The exit status, or nil when a signal ended the process.
        public let status: Int32?
        /// The signal that ended it, if one did.
        public let signal: Int32?
        public let stdout: String
        public let stderr: String
        /// Peak resident memory (ru_maxrss), in KB.
        public let peakKilobytes: Int
    }

    /// Runs `photomap arguments…` with `environment` (plus what `PhotomapBinary.environment` inherits), in
    /// `folder` when given (through `env -C`: posix_spawn has no portable way to change folder). A run still
    /// going after `limit` seconds is killed and recorded as an issue.
    public static func run(
        _ arguments: [[UInt8]], environment: [String: String] = [:],
        in folder: URL? = nil, limit: TimeInterval = 600
    ) throws -> Result {
        let output = Pipe(), errors = Pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.fileHandleForWriting.fileDescriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.fileHandleForWriting.fileDescriptor, 2)
        let photomap = Array(PhotomapBinary.url.path.utf8)
        let path = folder == nil ? PhotomapBinary.url.path : "/usr/bin/env"
        let command = folder.map { [Array(path.utf8), Array("-C".utf8), Array($0.path.utf8), photomap] } ?? [photomap]
        // C strings: a NUL inside an argument would end it there, as it would for any program.
        let argv: [UnsafeMutablePointer<CChar>?] = (command + arguments).map { bytes in
            guard let copy = calloc(bytes.count + 1, 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            return copy
        }
        let envp = PhotomapBinary.environment(environment).map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        var argvEnded = argv + [nil], envpEnded = envp + [nil]
        let spawned = posix_spawn(&pid, path, &actions, nil, &argvEnded, &envpEnded)
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        // A run that hangs ends the test, not CI: killed once `limit` passes.
        let words = (command + arguments).map { String(decoding: $0, as: UTF8.self) }
        let watchdog = Watchdog(pid, limit: limit, words.joined(separator: " "))
        let (outputData, errorData) = readToEnd(output, errors)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        watchdog.finish()
        let signal = status & 0x7F
        return Result(
            status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self),
            peakKilobytes: usage.ru_maxrss)
    }

    /// Everything a running process writes to `output` and `errors`, both read at once so that a large
    /// output cannot fill one pipe and stall the process.
    private static func readToEnd(_ output: Pipe, _ errors: Pipe) -> (output: Data, errors: Data) {
        let errorData = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        Thread {
            errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
            done.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        return (outputData, errorData.withLock { $0 })
    }

    /// `run` with arguments given as text.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try run(arguments.map { Array($0.utf8) }, environment: environment)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs a short command and returns what it printed, with posix_spawn and waitpid: Foundation's
/// `Process` was seen to miss the exit of `scripts/postgres` (whose server outlives it), waiting forever.
public enum Subprocess {
    /// The command's standard output, trimmed; throws when it exits other than 0.
    public static func output(_ executable: String, _ arguments: [String]) throws -> String {
        var pipe: [Int32] = [0, 0]
        // Close-on-exec: only the child's standard output (dup2 clears the flag) reaches what it starts,
        // so the server it leaves running does not hold the pipe open.
        guard Glibc.pipe(&pipe) == 0 else { throw POSIXError(.EMFILE) }
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pid: pid_t = 0
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "\(executable) \(arguments) failed"])
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

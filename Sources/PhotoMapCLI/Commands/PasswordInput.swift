// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// A new password, as `users add` and `users passwd` read it: typed twice on the terminal with echo off
/// (termios), or one line of standard input (`--password-stdin`), read to a bound.
enum PasswordInput {
    /// The password; a usage error when the terminal is not there, the two differ, or it is too short or long.
    static func read(fromStandardInput: Bool) throws -> String {
        let password: String
        if fromStandardInput {
            password = try line(from: STDIN_FILENO) ?? ""
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                throw UsageError("standard input is not a terminal: give the password with --password-stdin")
            }
            let first = try prompt("Password: ")
            guard PasswordHash.accepts(first) else { throw lengthError }
            guard try prompt("Again: ") == first else { throw UsageError("the two passwords differ; nothing changed") }
            password = first
        }
        guard PasswordHash.accepts(password) else { throw lengthError }
        return password
    }

    private static var lengthError: UsageError {
        UsageError(
            "a password must be \(PasswordHash.minimumLength) to \(PasswordHash.maximumLength) characters; nothing changed"
        )
    }

    /// Asks on standard error and reads one line from the terminal with echo off, restoring it after.
    private static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw UsageError("cannot read the terminal's settings") }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        return try line(from: STDIN_FILENO) ?? ""
    }

    /// One line (its newline, and a CR before it, dropped) of at most `PasswordHash.maximumLength` × 4 bytes,
    /// read a byte at a time so nothing after it is taken; a longer line is an error.
    private static func line(from descriptor: Int32) throws -> String? {
        let bound = PasswordHash.maximumLength * 4
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            guard bytes.count < bound else { throw lengthError }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(validating: bytes, as: UTF8.self)
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A command line photomap cannot run: exit status 2, with the message and a pointer to `--help`.
struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong, for the user.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A command that ran but did not achieve what was asked: exit status 1 with this message.
struct CommandFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the user.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A PostgreSQL cluster of a test's own (`scripts/postgres`), for tests that halt and resume the server
/// under a running photomap, which the suite's shared cluster cannot be.
public struct OwnCluster {
    /// The URL of its `photomap_template` database (the login is the cluster's admin).
    public let url: String
    private let folder: TemporaryFolder

    /// Starts the cluster in a folder of its own.
    public init() throws {
        folder = try TemporaryFolder()
        let admin = try Self.run("start", folder)
        url = admin.replacingOccurrences(of: "/postgres?", with: "/photomap_template?")
    }

    /// Stops the server, keeping its data: the database going away (`scripts/postgres halt`).
    public func halt() throws { _ = try Self.run("halt", folder) }
    /// Starts it again on the same data and port.
    public func resume() throws { _ = try Self.run("resume", folder) }
    /// Stops it for good.
    public func stop() { _ = try? Self.run("stop", folder) }

    private static func run(_ action: String, _ folder: TemporaryFolder) throws -> String {
        let script = LoopbackServer.repositoryRoot.appendingPathComponent("scripts/postgres").path
        return try Subprocess.output(script, [action, folder.url.appendingPathComponent("pg").path])
    }
}

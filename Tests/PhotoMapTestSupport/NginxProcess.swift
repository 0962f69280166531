// SPDX-License-Identifier: Apache-2.0
import Foundation

/// nginx running `deploy/nginx.conf` as it is, with only its ports and prefix changed: in front of the
/// `photomap serve` instances at `upstreams`, listening on `port`. Stopped when released.
public final class NginxProcess: Sendable {
    /// Where it listens on 127.0.0.1.
    public let port: Int
    private let prefix: TemporaryFolder
    private let process: Process

    /// Starts nginx before `upstreams` (the ports of the deployment's two instances).
    public init(upstreams: [Int], port: Int) throws {
        self.port = port
        prefix = try TemporaryFolder()
        // Workers drop to an unprivileged user when nginx starts as root: they must reach the prefix.
        chmod(prefix.url.path, 0o777)
        let deployed = try String(
            contentsOf: LoopbackServer.repositoryRoot.appendingPathComponent("deploy/nginx.conf"),
            encoding: .utf8)
        var config = deployed.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        let defaults = ["127.0.0.1:8081", "127.0.0.1:8082"]
        for (name, upstream) in zip(defaults, upstreams) {
            config = config.replacingOccurrences(of: name, with: "127.0.0.1:\(upstream)")
        }
        let file = prefix.url.appendingPathComponent("nginx.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix.url.path + "/", "-c", file.path, "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Answering once it listens.
        let deadline = Date().addingTimeInterval(10)
        while (try? RawHTTP.connect(port: port, timeout: 1)).map({ close($0) }) == nil {
            guard Date() < deadline, process.isRunning else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "nginx did not start"])
            }
            usleep(50_000)
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit(within: 60, "nginx after SIGQUIT")
        }
    }

    /// `GET path` through nginx, naming `host` (default: what a user would type for it).
    public func request(_ path: String, host: String? = nil, timeout: TimeInterval = 10) throws -> RawHTTP.Answer {
        try RawHTTP.send(
            "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n",
            port: port, timeout: timeout)
    }

    /// A port no one listens on now.
    public static func freePort() throws -> Int {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

import Foundation

/// The `Host` names `photomap serve` answers to: its own address and the loopback names on its port,
/// names given for a proxy in front of it, and, listening on every address, any IP literal of this
/// machine's on that port. A page elsewhere that renamed itself to this machine (DNS rebinding) comes
/// through a name, and is refused.
final class AllowedHosts: Sendable {
    private let hosts = Locked<Set<String>>([])
    /// The port, and whether the server listens on every address.
    private let port = Locked<(number: Int, everyAddress: Bool)>((0, false))

    /// Accepts `address` or a loopback name, on `port`; listening on every address (0.0.0.0, ::), any IP
    /// literal on that port (never a name).
    func allow(address: String, port: Int) {
        self.port.withLock { $0 = (port, address == "0.0.0.0" || address == "::") }
        let names = ["127.0.0.1", "localhost", "[::1]", address.contains(":") ? "[\(address)]" : address]
        hosts.withLock { hosts in
            for name in names {
                hosts.insert("\(name):\(port)".lowercased())
                if port == 80 { hosts.insert(name.lowercased()) }
            }
        }
    }

    /// Accepts exactly `host` (a name, or a name and a port), as users type it in front of a proxy.
    func allow(publicHost host: String) {
        hosts.withLock { _ = $0.insert(host.lowercased()) }
    }

    /// Whether a request naming `host` (lowercased) is answered.
    func contains(_ host: String) -> Bool {
        if hosts.withLock({ $0.contains(host) }) { return true }
        let (number, everyAddress) = port.withLock { $0 }
        guard everyAddress, host.hasSuffix(":\(number)") else { return false }
        var name = String(host.dropLast(":\(number)".count))
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var address = in6_addr()
        return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
    }
}

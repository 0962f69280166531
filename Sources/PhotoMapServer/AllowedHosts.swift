// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// The `Host` names `photomap serve` answers to: its own address and the loopback names on its port,
/// names given for a proxy in front of it, and, listening on every address, this machine's own
/// addresses on that port (loopback, and those of its network interfaces). A page elsewhere that renamed
/// itself to this machine (DNS rebinding) comes through a name, or an address not this machine's, and
/// is refused.
final class AllowedHosts: Sendable {
    private let hosts = Locked<Set<String>>([])
    /// The port, and whether the server listens on every address.
    private let port = Locked<(number: Int, everyAddress: Bool)>((0, false))
    /// The addresses of this machine's interfaces, and when they were read (interfaces come and go).
    private let interfaces = Locked<(addresses: Set<[UInt8]>, read: Date)>(([], .distantPast))
    /// How long the interfaces' addresses are taken as read.
    private static let interfacesKept: TimeInterval = 5

    /// Accepts `address` or a loopback name, on `port`; listening on every address (0.0.0.0, ::), any of
    /// this machine's addresses on that port (never a name).
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
        guard let address = Self.bytes(ofLiteral: name) else { return false }
        return Self.isLoopback(address) || isInterfaceAddress(address)
    }

    /// An IPv4 or IPv6 literal's bytes (4 or 16), or nil for anything else.
    private static func bytes(ofLiteral text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// 127.0.0.0/8 or ::1.
    private static func isLoopback(_ address: [UInt8]) -> Bool {
        address.count == 4 ? address[0] == 127 : address == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// Whether `address` is one of this machine's interfaces', read again when an address is not among
    /// them and they were read more than `interfacesKept` ago.
    private func isInterfaceAddress(_ address: [UInt8]) -> Bool {
        interfaces.withLock { interfaces in
            if !interfaces.addresses.contains(address)
                && Date().timeIntervalSince(interfaces.read) > Self.interfacesKept
            {
                interfaces = (Self.interfaceAddresses(), Date())
            }
            return interfaces.addresses.contains(address)
        }
    }

    /// The IPv4 and IPv6 addresses of this machine's network interfaces (getifaddrs).
    private static func interfaceAddresses() -> Set<[UInt8]> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: Set<[UInt8]> = []
        for entry in sequence(first: list, next: { $0?.pointee.ifa_next }) {
            guard let address = entry?.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var bytes = $0.pointee.sin_addr
                    addresses.insert(withUnsafeBytes(of: &bytes) { Array($0) })
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var bytes = $0.pointee.sin6_addr
                    addresses.insert(withUnsafeBytes(of: &bytes) { Array($0) })
                }
            default:
                continue
            }
        }
        return addresses
    }
}

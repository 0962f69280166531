// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

@Suite("The Host names serve answers to")
struct AllowedHostsTests {
    @Test("on one address: it, the loopback names and a public host; no other name or address")
    func oneAddress() {
        let hosts = AllowedHosts()
        hosts.allow(address: "127.0.0.1", port: 8080)
        hosts.allow(publicHost: "photos.example.org")
        for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "photos.example.org"] {
            #expect(hosts.contains(host), "\(host)")
        }
        for host in ["127.0.0.1:8081", "evil.example:8080", "203.0.113.7:8080", "127.0.0.2:8080", "localhost"] {
            #expect(!hosts.contains(host), "\(host)")
        }
    }

    @Test("on every address: this machine's own addresses on the port, never another's nor a name")
    func everyAddress() {
        let hosts = AllowedHosts()
        hosts.allow(address: "0.0.0.0", port: 8080)
        for host in ["127.0.0.1:8080", "127.0.0.2:8080", "[::1]:8080", "[0:0:0:0:0:0:0:1]:8080"] {
            #expect(hosts.contains(host), "\(host)")
        }
        for host in [
            "203.0.113.7:8080", "[2001:db8::1]:8080", "127.0.0.1:8081", "evil.example:8080",
            "[::ffff:203.0.113.7]:8080",
        ] {
            #expect(!hosts.contains(host), "\(host)")
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Sends bytes to a server on 127.0.0.1 as they are, and reads the answer until the server closes
/// or `timeout` passes: for requests no well-behaved client sends (POST, huge headers, bad Host).
public enum RawHTTP {
    /// The answer's status (0 when none came), header fields (names lowercased) and body.
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data
        /// Every `Set-Cookie` field, in order (`headers` keeps one field of a name).
        public var setCookies: [String] = []

        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The value a `Set-Cookie` field gives the cookie `name`, if one gives it a value.
        public func cookie(_ name: String) -> String? {
            setCookies.lazy.compactMap { field -> String? in
                let pair = field.prefix { $0 != ";" }
                guard pair.hasPrefix(name + "=") else { return nil }
                return String(pair.dropFirst(name.count + 1))
            }.first { !$0.isEmpty }
        }
    }

    /// Sends `request` (Connection: close is the caller's to add) and reads the answer.
    public static func send(
        _ request: String, port: Int, timeout: TimeInterval = 10, from source: String = "127.0.0.1"
    ) throws -> Answer {
        try send(bytes: Array(request.utf8), port: port, timeout: timeout, from: source)
    }

    /// Sends `bytes` as they are (invalid UTF-8, NUL, anything) from loopback address `source`, and reads
    /// the answer.
    public static func send(
        bytes: [UInt8], port: Int, timeout: TimeInterval = 10, from source: String = "127.0.0.1"
    ) throws -> Answer {
        let descriptor = try connect(port: port, timeout: timeout, from: source)
        defer { close(descriptor) }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before reading everything (a refused upload): read what it said.
            guard count > 0 else { break }
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return parse(received)
    }

    /// A socket connected to `port` that has been sent `text` (a request, or part of one) and is left open,
    /// its answer unread: a client that waits, or trickles; the caller closes it.
    public static func opened(sending text: String, port: Int, from source: String = "127.0.0.1") throws -> Int32 {
        let descriptor = try connect(port: port, from: source)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return descriptor
    }

    /// A socket connected to `port` on 127.0.0.1 from `source` (another loopback address, 127.0.0.2…, is
    /// another client to the server), its reads giving up after `timeout`; the caller closes it.
    public static func connect(port: Int, timeout: TimeInterval = 10, from source: String = "127.0.0.1") throws -> Int32
    {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        // The source port is chosen at connect, as for any client, not by bind from the ports no socket
        // holds (TIME_WAIT's included; a full ASan run here peaked at 1,848 of them).
        var later: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_IP), IP_BIND_ADDRESS_NO_PORT, &later, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            let code = errno
            close(descriptor)
            throw ConnectFailure(
                step: bound == 0 ? "connect to 127.0.0.1:\(port)" : "bind to \(source)",
                reason: String(cString: strerror(code)))
        }
        return descriptor
    }

    /// A socket that could not be bound or connected: which of the two, and the system's reason.
    public struct ConnectFailure: Error, CustomStringConvertible {
        public let step: String
        public let reason: String
        public var description: String { "\(step): \(reason)" }
    }

    /// Whether the server closes `descriptor` (an end, or a reset) within `timeout`, anything it sends
    /// first read and dropped.
    public static func closedByServer(_ descriptor: Int32, within timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while case let left = deadline.timeIntervalSinceNow, left > 0 {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, Int32(left * 1_000) + 1) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return true }
        }
        return false
    }

    private static func parse(_ data: Data) -> Answer {
        guard let split = data.range(of: Data("\r\n\r\n".utf8))
        else { return Answer(status: 0, headers: [:], body: data) }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
            if line[..<colon].lowercased() == "set-cookie" { cookies.append(value) }
        }
        return Answer(status: status, headers: headers, body: data[split.upperBound...], setCookies: cookies)
    }
}

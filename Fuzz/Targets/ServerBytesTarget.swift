// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapServer

/// `photomap serve` as a client reaches it: the input sent as it is, over TCP, to an `HTTPServer`
/// (libmicrohttpd) routing to the small catalog's `ServerRoutes`; the sending side then closed and the
/// answer read. Property: the server never crashes and never stops answering; every answer's status
/// line is HTTP/1.x with a status the routes or MHD's own bounds may give.
enum ServerBytesTarget {
    /// The routes' statuses and MHD's: 400 malformed, 413/414/431 too large, 501 unknown, 505 version.
    static let allowedStatuses = ServerRoutesTarget.allowedStatuses.union([413, 414, 431, 501, 505])

    /// A server on a free loopback port, idle connections closed after a second.
    static let server: HTTPServer = {
        do {
            return try HTTPServer(.init(address: "127.0.0.1", port: 0, threads: 2, connectionLimit: 64, timeout: 1)) {
                request in
                ServerRoutesTarget.routes.handle(request)
            }
        } catch {
            propertyFailed("the fuzz server cannot start: \(error)")
        }
    }()

    static let target = FuzzTarget(
        name: "server-bytes",
        summary: "raw bytes to a running HTTPServer (libmicrohttpd) with photomap serve's routes",
        options: ["-max_len=65536", "-timeout=20"],
        prepare: {
            ServerRoutesTarget.routes.allow(address: "127.0.0.1", port: server.port)
        }
    ) { bytes in
        let answer = exchange(bytes)
        for statusLine in statusLines(in: answer) {
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            require(
                parts.count >= 2 && (parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0"),
                "a status line \(statusLine.debugDescription)")
            require(
                Int(parts[1]).map(allowedStatuses.contains) == true,
                "status \(statusLine.debugDescription) for \(String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription)"
            )
        }
        // Still serving: a plain request after the hostile one is answered.
        let probe = exchange(
            Array(
                "GET /assets/photomap.css HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n".utf8)
        )
        require(
            statusLines(in: probe).first?.hasPrefix("HTTP/1.1 200") == true,
            "the server stopped answering: \(String(decoding: probe.prefix(200), as: UTF8.self).debugDescription)")
        return true
    }

    /// Sends `bytes`, closes the sending side and reads until the server closes (or 5 s pass).
    static func exchange(_ bytes: [UInt8]) -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { propertyFailed("no socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var wait = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        require(connected == 0, "the server refuses connections: \(String(cString: strerror(errno)))")
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before reading everything.
            guard count > 0 else { break }
            sent += count
        }
        shutdown(descriptor, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < 16 << 20 {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// The status lines of the answers in `bytes`: the first line, and each line starting "HTTP/"
    /// after a blank line (pipelined answers). Bodies are not parsed: a body line that looks like a
    /// status line is rare enough in these pages and images.
    static func statusLines(in bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = [String(text.prefix { $0 != "\r" && $0 != "\n" })]
        for piece in text.components(separatedBy: "\r\n\r\n").dropFirst() where piece.hasPrefix("HTTP/1.") {
            lines.append(String(piece.prefix { $0 != "\r" && $0 != "\n" }))
        }
        return lines
    }
}

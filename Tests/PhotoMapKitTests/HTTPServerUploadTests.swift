// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// POST bodies through libmicrohttpd: kept up to 64 KB and handed to the handler; a larger one refused
/// with 413 before its bytes are read (Content-Length) or once counted (chunks), never handled.
@Suite("HTTP server: request bodies")
struct HTTPServerUploadTests {
    /// A server answering each request with its method, its body's size and first bytes.
    func server() throws -> HTTPServer {
        try HTTPServer(.init(port: 0, connectionLimit: 16)) { request in
            .now(
                .text(
                    200,
                    "\(request.method) \(request.body.count) \(String(decoding: request.body.prefix(16), as: UTF8.self))"
                ))
        }
    }

    func post(_ headers: String, _ body: String, port: Int) throws -> RawHTTP.Answer {
        try RawHTTP.send(
            "POST /login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(headers)\r\n\(body)", port: port)
    }

    @Test("a body within 64 KB reaches the handler, sent whole or in chunks")
    func bodies() throws {
        let server = try server()
        let form = "name=anna&csrf=x"
        let whole = try post("Content-Length: \(form.utf8.count)\r\n", form, port: server.port)
        #expect(whole.status == 200 && String(decoding: whole.body, as: UTF8.self) == "POST 16 name=anna&csrf=x\n")
        let chunked = try post(
            "Transfer-Encoding: chunked\r\n", "5\r\nname=\r\n4\r\nanna\r\n0\r\n\r\n", port: server.port)
        #expect(String(decoding: chunked.body, as: UTF8.self) == "POST 9 name=anna\n")
        let limit = String(repeating: "a", count: Upload.limit)
        let full = try post("Content-Length: \(Upload.limit)\r\n", limit, port: server.port)
        #expect(String(decoding: full.body, as: UTF8.self).hasPrefix("POST 65536 "))
    }

    @Test("past 64 KB: 413, from Content-Length before the body, or once chunks pass it; the handler never asked")
    func tooLarge() throws {
        let server = try server()
        let declared = try post("Content-Length: \(Upload.limit + 1)\r\n", "", port: server.port)
        #expect(declared.status == 413)
        #expect(try post("Content-Length: -1\r\n", "", port: server.port).status != 200)
        let chunk = String(repeating: "a", count: 40_000)
        let hex = String(chunk.utf8.count, radix: 16)
        let chunked = try post(
            "Transfer-Encoding: chunked\r\n", "\(hex)\r\n\(chunk)\r\n\(hex)\r\n\(chunk)\r\n0\r\n\r\n", port: server.port
        )
        #expect(chunked.status == 413)
    }
}

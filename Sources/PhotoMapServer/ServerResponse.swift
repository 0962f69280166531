// SPDX-License-Identifier: Apache-2.0
import CMicroHTTPD
import Foundation
import PhotoMapKit

/// An answer: status, header fields and a body (bytes, or an open file MHD sends with sendfile).
public struct ServerResponse: Sendable {
    /// What the body is.
    public enum Body: Sendable {
        case bytes(Data)
        /// A file already open, of this size: sent as it is, closed by MHD when sent.
        case open(OpenFile, bytes: Int)
    }

    /// The HTTP status.
    public var status: Int
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body (MHD leaves it out for HEAD).
    public var body: Body

    /// Creates an answer.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer.
    public static func text(
        _ status: Int, _ text: String,
        headers: [(name: String, value: String)] = []
    ) -> ServerResponse {
        ServerResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: .bytes(Data((text + "\n").utf8)))
    }

    /// The value of a header field (first match, case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Hands the answer to MHD for `connection`.
    func queue(on connection: OpaquePointer) -> MHD_Result {
        let response: OpaquePointer?
        switch body {
        case let .bytes(data):
            response = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    .RESPMEM_MUST_COPY)
            }
        case let .open(file, bytes):
            response = file.take().flatMap { descriptor in
                let response = MHD_create_response_from_fd(bytes, descriptor)
                if response == nil { close(descriptor) }
                return response
            }
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        for field in headers {
            // MHD refuses values with CR or LF; every value here is photomap's own.
            let added = MHD_add_response_header(response, field.name, field.value)
            assert(added == .YES, "header \(field.name) refused")
        }
        return MHD_queue_response(connection, UInt32(status), response)
    }
}

extension CachedImage {
    /// The image as an answer's body: the open file sent as it is, or the bytes in hand.
    var body: ServerResponse.Body {
        switch contents {
        case let .file(file): return .open(file, bytes: bytes)
        case let .bytes(data): return .bytes(data)
        }
    }
}

import CMicroHTTPD
import Foundation

/// An answer: status, header fields and a body (bytes, or a file MHD sends with sendfile).
public struct ServerResponse: Sendable {
    /// What the body is.
    public enum Body: Sendable {
        case bytes(Data)
        /// A file on disk, opened when the answer is queued.
        case file(path: String)
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
    public static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: .bytes(Data((text + "\n").utf8)))
    }

    /// The value of a header field (first match, case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Hands the answer to MHD for `connection`.
    func queue(on connection: OpaquePointer) -> MHD_Result {
        var status = status
        let response: OpaquePointer?
        switch body {
        case let .bytes(data):
            response = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case let .open(file, bytes):
            response = file.take().flatMap { MHD_create_response_from_fd(bytes, $0) }
        case let .file(path):
            // MHD closes the descriptor when it is done with the response.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            if descriptor >= 0, fstat(descriptor, &info) == 0 {
                response = MHD_create_response_from_fd(Int(info.st_size), descriptor)
            } else {
                // Evicted between the lookup and now: the client may simply ask again.
                if descriptor >= 0 { close(descriptor) }
                status = 503
                response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            }
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        for field in headers where status != 503 || field.name.caseInsensitiveCompare("Content-Type") != .orderedSame {
            MHD_add_response_header(response, field.name, field.value)
        }
        return MHD_queue_response(connection, UInt32(status), response)
    }
}

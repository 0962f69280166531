// SPDX-License-Identifier: Apache-2.0
import CMicroHTTPD
import Foundation
import PhotoMapKit

/// One request as MHD parsed it: method, path (percent-decoded by MHD), the header fields photomap
/// reads (names lowercased) and the query arguments. Copied out of MHD at once, so it outlives the
/// callback.
public struct ServerRequest: Sendable {
    /// "GET", "HEAD", …
    public let method: String
    /// The path without the query, percent-decoded.
    public let path: String
    /// The header fields photomap reads (`readHeaders`), by lowercased name.
    public let headers: [String: String]
    /// Query arguments, decoded.
    public let query: [String: String]
    /// A POST's body (at most `Upload.limit` bytes); empty otherwise.
    public let body: Data
    /// The address the connection comes from ("" when unknown): the proxy's, behind one.
    public let peerAddress: String

    /// A request with these parts (the server makes them from MHD's connection; tests directly).
    public init(
        method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
        body: Data = Data(), peerAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
        self.body = body
        self.peerAddress = peerAddress
    }

    /// The header fields the routes read: looked up by name (MHD compares them case-insensitively),
    /// not every field copied. The last ones are sign-in's (`ServerRoutes+Session`).
    static let readHeaders = [
        "host", "if-none-match", "sec-fetch-site", "cookie", "origin", "referer", "content-type", "x-csrf-token",
        "x-forwarded-proto", "x-real-ip",
    ]

    init(connection: OpaquePointer, method: String, path: String, body: Data) {
        var headers: [String: String] = [:]
        for name in Self.readHeaders {
            headers[name] = MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
        }
        var address = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        photomap_mhd_client_address(connection, &address, address.count)
        self.init(
            method: method, path: path, headers: headers, query: Self.arguments(of: connection), body: body,
            peerAddress: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func arguments(of connection: OpaquePointer) -> [String: String] {
        final class Collected {
            var values: [String: String] = [:]
        }
        let collected = Collected()
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(
                connection, .GET_ARGUMENT_KIND,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().values[String(cString: key)] =
                        value.map { String(cString: $0) } ?? ""
                    return .YES
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }
}

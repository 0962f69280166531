import CMicroHTTPD

/// One request as MHD parsed it: method, path (percent-decoded by MHD), header fields (names
/// lowercased) and query arguments. Copied out of MHD at once, so it outlives the callback.
public struct ServerRequest: Sendable {
    /// "GET", "HEAD", …
    public let method: String
    /// The path without the query, percent-decoded.
    public let path: String
    /// Header fields by lowercased name (the last of a repeated field).
    public let headers: [String: String]
    /// Query arguments, decoded.
    public let query: [String: String]

    /// A request with these parts (the server makes them from MHD's connection; tests directly).
    public init(method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
    }

    init(connection: OpaquePointer, method: String, path: String) {
        self.init(method: method, path: path, headers: Self.values(of: connection, kind: .HEADER_KIND, lowercased: true),
                  query: Self.values(of: connection, kind: .GET_ARGUMENT_KIND, lowercased: false))
    }

    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Collected {
            var values: [String: String] = [:]
            let lowercased: Bool
            init(lowercased: Bool) { self.lowercased = lowercased }
        }
        let collected = Collected(lowercased: lowercased)
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return .YES }
                let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                let name = String(cString: key)
                collected.values[collected.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }
}

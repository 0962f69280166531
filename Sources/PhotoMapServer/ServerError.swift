// SPDX-License-Identifier: Apache-2.0
/// What can go wrong starting the server.
public enum ServerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The address is not an IP literal, or the port is taken or not allowed.
    case cannotListen(address: String, port: Int, reason: String)

    /// A sentence naming the address and the reason.
    public var description: String {
        switch self {
        case let .cannotListen(address, port, reason):
            return "cannot listen on \(address.contains(":") ? "[\(address)]" : address):\(port): \(reason)"
        }
    }
}

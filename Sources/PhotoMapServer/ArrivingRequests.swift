// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// The requests still arriving on a server's connections; a connection whose request has not arrived
/// whole within the deadline is closed. MHD's idle timeout is renewed by every byte, so without this a
/// client trickling its header a byte a second holds its connection for as long as it likes (slowloris).
/// A request's time counts from the connection's opening, or from the answer before it on a kept-alive
/// connection, to the moment photomap starts answering it (line, header fields and any body).
final class ArrivingRequests: Sendable {
    /// An open connection: its socket, and since when its request has been arriving (nil while answered).
    private struct Connection {
        let socket: Int32
        var since: UInt64?
    }

    /// By MHD's connection handle, from its opening to its closing (MHD closes the socket only after it
    /// has told of the closing, so a socket here is still the connection's own).
    private let connections = Locked<[Int: Connection]>([:])
    private let deadline: UInt64
    private let sweeps: Sweeps

    /// The timer of the sweeps; a dispatch source's calls are thread-safe.
    private struct Sweeps: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    /// Closes connections whose request has been arriving for more than `deadline` seconds, looking a
    /// tenth of the deadline apart (at most a second).
    init(deadline: TimeInterval) {
        self.deadline = UInt64(max(deadline, 0) * 1e9)
        let interval = min(max(deadline / 10, 0.05), 1)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        sweeps = Sweeps(timer: timer)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.closeLate() }
        timer.resume()
    }

    /// A connection opened: its first request starts arriving.
    func opened(_ connection: Int, socket: Int32) {
        connections.withLock {
            $0[connection] = Connection(socket: socket, since: DispatchTime.now().uptimeNanoseconds)
        }
    }

    /// The request on `connection` is in: it is being answered, with no deadline.
    func arrived(_ connection: Int) {
        connections.withLock { $0[connection]?.since = nil }
    }

    /// The answer on `connection` is done: the next request (keep-alive) starts arriving now.
    func answered(_ connection: Int) {
        connections.withLock { $0[connection]?.since = DispatchTime.now().uptimeNanoseconds }
    }

    /// MHD is closing `connection`.
    func closed(_ connection: Int) {
        connections.withLock { _ = $0.removeValue(forKey: connection) }
    }

    /// No more sweeps.
    func stop() {
        sweeps.timer.cancel()
    }

    /// Shuts down the sockets of requests past the deadline: MHD sees the connection end and closes it
    /// on its own thread, as when a client leaves. Done under the lock, so no socket is closed meanwhile.
    private func closeLate() {
        connections.withLock { connections in
            // Read under the lock: no `since` set after it.
            let now = DispatchTime.now().uptimeNanoseconds
            for (connection, arriving) in connections {
                guard let since = arriving.since, now - since > deadline else { continue }
                shutdown(arriving.socket, Int32(SHUT_RDWR))
                connections[connection]?.since = nil
            }
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import CMicroHTTPD
import Dispatch
import Foundation
import PhotoMapKit
import PhotoMapSupport
import Synchronization

/// The request context of a request whose headers are in, before any answer: a marker, never
/// dereferenced (a constant address, so nothing is shared).
nonisolated(unsafe) private let headersIn = UnsafeMutableRawPointer(bitPattern: 1)
/// The request context of a request with too many query arguments, from its request line: another marker.
nonisolated(unsafe) private let tooManyArguments = UnsafeMutableRawPointer(bitPattern: 2)

/// An HTTP/1.1 server on GNU libmicrohttpd: MHD parses every request and enforces the bounds
/// (connections, per client too, idle time, request-line and header size), photomap the whole request's
/// time (`ArrivingRequests`) and the number of query arguments, and routes. The handler runs
/// on MHD's polling threads and must not block: a reply that needs slow work (a fetch, a listing)
/// is `.later`, and its connection is suspended — holding no thread — until the work answers.
public final class HTTPServer: Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal (not a name).
        public var address: String
        /// 0: any free port.
        public var port: Int
        /// MHD's polling threads.
        public var threads: Int
        /// Connections at once. Each costs a descriptor and a few KB while its request comes (1,000
        /// half-sent requests grew the server by 4.6 MB), so the limit is high enough that a crowd of slow
        /// clients, closed after `requestDeadline`, leaves room for the others.
        public var connectionLimit: Int
        /// Connections at once from one client address: past it, a new one is closed at once. A browser
        /// opens at most 6 to a server, so 64 leaves room for ten behind one address (NAT), and it takes 64
        /// addresses to hold all 4,096. A proxy in front is one address for all its users: raise it there,
        /// and let the proxy limit each user (`limit_conn` in deploy/nginx.conf).
        public var connectionsPerClient: Int
        /// Requests waiting suspended for slow work at once; past it, 503 at once. MHD does not watch a
        /// suspended connection, so one whose client left still holds its place until it is answered:
        /// without this bound, abandoned slow requests could fill `connectionLimit`.
        public var suspendedLimit: Int
        /// Seconds a connection may stay idle.
        public var timeout: Int
        /// Seconds a request may take to arrive whole, from the connection's opening or the answer before it
        /// (an idle kept-alive connection is closed after as long). MHD renews `timeout` with every byte.
        public var requestDeadline: TimeInterval
        /// Bytes for one request's line and headers.
        public var requestMemory: Int

        /// Loopback on port 8080, a polling thread per core, 4,096 connections (64 from one client, half
        /// of them at most waiting for slow work) idle at most 30 s, 32 KB a request, arrived within 10 s.
        public init(
            address: String = "127.0.0.1", port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            connectionLimit: Int = 4_096, connectionsPerClient: Int = 64, suspendedLimit: Int? = nil,
            timeout: Int = 30, requestDeadline: TimeInterval = 10, requestMemory: Int = 32 << 10
        ) {
            self.address = address
            self.port = port
            self.threads = max(threads, 1)
            self.connectionLimit = connectionLimit
            self.connectionsPerClient = max(connectionsPerClient, 1)
            self.suspendedLimit = suspendedLimit ?? connectionLimit / 2
            self.timeout = timeout
            self.requestDeadline = requestDeadline
            self.requestMemory = requestMemory
        }
    }

    /// An answer now, or work whose answer comes later (the connection waits suspended).
    public enum Reply: Sendable {
        case now(ServerResponse)
        case later(@Sendable (_ answer: @escaping @Sendable (ServerResponse) -> Void) -> Void)
    }

    /// Routes a request.
    public typealias Handler = @Sendable (ServerRequest) -> Reply

    /// Most query arguments a request may have; past it, 414 at once (MHD keeps each in the request's
    /// memory, and stops reading a request whose arguments do not fit, holding its connection).
    public static let maximumQueryArguments = 100

    /// The port the server listens on.
    public let port: Int
    private let core: Core

    /// Starts listening; throws when the address is not a literal or the port cannot be had.
    public init(_ configuration: Configuration, handler: @escaping Handler) throws(ServerError) {
        let refuse = { (reason: String) -> ServerError in
            .cannotListen(address: configuration.address, port: configuration.port, reason: reason)
        }
        guard (0...65_535).contains(configuration.port) else { throw refuse("not a port number") }
        var probe = in6_addr()
        guard
            inet_pton(AF_INET, configuration.address, &probe) == 1
                || inet_pton(AF_INET6, configuration.address, &probe) == 1
        else { throw refuse("not an IP address") }
        let connectionLimit = Self.descriptorsAllowing(configuration.connectionLimit)
        let core = Core(
            handler: handler, suspendedLimit: min(configuration.suspendedLimit, connectionLimit),
            arriving: ArrivingRequests(deadline: configuration.requestDeadline))
        let context = Unmanaged.passRetained(core).toOpaque()
        errno = 0
        guard
            let daemon = photomap_mhd_start(
                configuration.address, UInt16(configuration.port), UInt32(clamping: configuration.threads),
                UInt32(clamping: connectionLimit), UInt32(clamping: configuration.connectionsPerClient),
                UInt32(clamping: configuration.timeout), max(configuration.requestMemory, 0), Self.handle,
                Self.completed, Self.connected, Self.requestLine, context)
        else {
            core.arriving.stop()
            Unmanaged<Core>.fromOpaque(context).release()
            throw refuse(errno == 0 ? "libmicrohttpd refused the settings" : String(cString: strerror(errno)))
        }
        core.daemon.withLock { $0 = Daemon(pointer: daemon) }
        self.core = core
        port = Int(photomap_mhd_port(daemon))
    }

    deinit {
        stop(grace: 0)
    }

    /// The connections this process can have open, `wanted` at most: the soft limit on descriptors is
    /// raised towards its hard limit when it is lower (systemd's soft default is 1,024), keeping 256 for
    /// files, the cache and the database.
    private static func descriptorsAllowing(_ wanted: Int) -> Int {
        let reserve = 256
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return wanted }
        let needed = rlim_t(wanted + reserve)
        if limits.rlim_cur != rlim_t.max && limits.rlim_cur < needed {
            var raised = limits
            raised.rlim_cur = limits.rlim_max == rlim_t.max ? needed : min(needed, limits.rlim_max)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        guard limits.rlim_cur != rlim_t.max else { return wanted }
        return max(min(wanted, Int(limits.rlim_cur) - reserve), 1)
    }

    /// How long stopping lets the answers it gave the waiting requests go out, at most.
    static let answersOut: TimeInterval = 5

    /// Stops accepting, lets answers in progress finish for up to `grace` seconds, answers the
    /// still-waiting ones 503, and stops within `answersOut` more. Idempotent.
    public func stop(grace: TimeInterval) {
        guard
            let daemon = core.daemon.withLock({ daemon in
                defer { daemon = nil }
                return daemon
            })
        else { return }
        core.stopping.store(true, ordering: .relaxed)
        // MHD hands the listening socket back; shut down, it refuses connections from here on, but
        // it is closed only after MHD_stop_daemon, since a polling thread may still hold its number.
        let listening = MHD_quiesce_daemon(daemon.pointer)
        if listening >= 0 { shutdown(listening, Int32(SHUT_RDWR)) }
        defer { if listening >= 0 { close(listening) } }
        var deadline = Date().addingTimeInterval(grace)
        while core.active.load(ordering: .relaxed) > 0 && Date() < deadline { usleep(20_000) }
        // MHD refuses to stop with suspended connections: answer them now (again and again, for a
        // request that was about to suspend as this began), and let the answers go out: within 5 s, as
        // 2 s once cut an answer already given on a loaded machine (the client read nothing).
        deadline = Date().addingTimeInterval(Self.answersOut)
        repeat {
            for waiting in core.suspended.withLock({ Array($0.values) }) {
                waiting.answer(ServerResponse.text(503, "photomap is stopping"))
            }
            usleep(5_000)
        } while core.active.load(ordering: .relaxed) > 0 && Date() < deadline
        MHD_stop_daemon(daemon.pointer)
        core.arriving.stop()
        Unmanaged.passUnretained(core).release()
    }

    // MARK: - Callbacks from MHD (its threads)

    /// MHD calls this at least twice per request: first when the headers are in (answering then
    /// would make MHD close the connection, unsure the body was read), then when the body has been
    /// read; and once more after a suspended request is resumed, its answer ready.
    private static let handle: photomap_mhd_handler = {
        context, connection, url, method, _, uploadData, uploadSize, requestContext in
        guard let context, let connection, let requestContext else { return .NO }
        let data = uploadData
        let core = Unmanaged<Core>.fromOpaque(context).takeUnretainedValue()
        let method = method.map { String(cString: $0) } ?? ""
        var bodyBytes = Data()
        switch requestContext.pointee {
        case nil where method == "GET" || method == "HEAD":
            core.active.add(1, ordering: .relaxed)
            requestContext.pointee = headersIn
            return .YES
        case nil where method == "POST":
            core.active.add(1, ordering: .relaxed)
            // The body's bound is decided before a byte of it arrives: a Content-Length above it is refused
            // now, its body unread (MHD then closes the connection); a body sent in chunks is counted below.
            guard Upload.fits(MHD_lookup_connection_value(connection, .HEADER_KIND, "content-length")) else {
                requestContext.pointee = headersIn
                return Upload.tooLarge.queue(on: connection)
            }
            requestContext.pointee = Unmanaged.passRetained(Upload()).toOpaque()
            return .YES
        case nil:
            // Anything else is refused at once, its body unread: MHD then closes the connection.
            core.active.add(1, ordering: .relaxed)
            requestContext.pointee = headersIn
        case tooManyArguments?:
            core.active.add(1, ordering: .relaxed)
            requestContext.pointee = headersIn
            core.arriving.arrived(Int(bitPattern: connection))
            return ServerResponse.text(414, "More than \(maximumQueryArguments) query arguments.")
                .queue(on: connection)
        case headersIn?:
            // A GET may still carry a body: it is read and dropped.
            if let uploadSize, uploadSize.pointee > 0 {
                uploadSize.pointee = 0
                return .YES
            }
        // After the markers above: only a pointer of ours is looked into.
        case let upload? where Upload.holds(upload):
            let body = Unmanaged<Upload>.fromOpaque(upload).takeUnretainedValue()
            if let uploadSize, uploadSize.pointee > 0 {
                defer { uploadSize.pointee = 0 }
                // Past the bound the rest is read and dropped (MHD cannot answer mid-body), then answered 413.
                body.append(data, count: uploadSize.pointee)
                return .YES
            }
            guard !body.overflowed else { return Upload.tooLarge.queue(on: connection) }
            requestContext.pointee = headersIn
            Unmanaged<Upload>.fromOpaque(upload).release()
            bodyBytes = body.bytes
        case let pending?:
            let waiting = Unmanaged<Waiting>.fromOpaque(pending).takeUnretainedValue()
            guard let response = waiting.response.withLock({ $0 }) else { return .NO }
            return response.queue(on: connection)
        }
        core.arriving.arrived(Int(bitPattern: connection))
        let request = ServerRequest(
            connection: connection, method: method,
            path: url.map { String(cString: $0) } ?? "/", body: bodyBytes)
        switch core.handler(request) {
        case let .now(response):
            return response.queue(on: connection)
        case .later where core.stopping.load(ordering: .relaxed):
            // Stopping: no new waits (a keep-alive connection may still ask something).
            return ServerResponse.text(503, "photomap is stopping").queue(on: connection)
        case .later where core.suspended.withLock({ $0.count }) >= core.suspendedLimit:
            return ServerResponse.text(503, "photomap is busy; try again shortly", headers: [("Retry-After", "1")])
                .queue(on: connection)
        case let .later(work):
            let waiting = Waiting(connection: connection, core: core)
            requestContext.pointee = Unmanaged.passRetained(waiting).toOpaque()
            // Suspended before it is registered (stop() resumes what is registered) and before the
            // work starts, so an answer that comes at once finds it suspended.
            MHD_suspend_connection(connection)
            core.suspended.withLock { $0[ObjectIdentifier(waiting)] = waiting }
            work { waiting.answer($0) }
            return .YES
        }
    }

    /// A request is done: answered, or its connection closed. MHD tells of every request whose line came
    /// in (`requestLine` saw it), also those the handler never saw.
    private static let completed: photomap_mhd_completed = { context, connection, requestContext, _ in
        guard let context else { return }
        let core = Unmanaged<Core>.fromOpaque(context).takeUnretainedValue()
        switch requestContext?.pointee {
        case nil, tooManyArguments?:
            break
        case let pending?:
            // A Waiting, or an Upload whose client left before its body was in.
            if pending != headersIn { Unmanaged<AnyObject>.fromOpaque(pending).release() }
            core.active.subtract(1, ordering: .relaxed)
        }
        requestContext?.pointee = nil
        if let connection { core.arriving.answered(Int(bitPattern: connection)) }
    }

    /// A connection opened or closed.
    private static let connected: photomap_mhd_connected = { context, connection, _, event in
        guard let context, let connection else { return }
        let core = Unmanaged<Core>.fromOpaque(context).takeUnretainedValue()
        if photomap_mhd_is_opening(event) {
            core.arriving.opened(Int(bitPattern: connection), socket: photomap_mhd_socket(connection))
        } else {
            core.arriving.closed(Int(bitPattern: connection))
        }
    }

    /// A request's line is in: its raw target, before MHD parses the query. Too many arguments are
    /// dropped unparsed and the request marked, so that the handler answers it 414 at once.
    private static let requestLine: photomap_mhd_request_line = { _, target, _ in
        guard let target, photomap_mhd_drop_query_over(target, UInt32(maximumQueryArguments)) else { return nil }
        return tooManyArguments
    }

    /// What the callbacks share: the handler, the daemon, and the requests in progress and arriving.
    private final class Core: Sendable {
        let handler: Handler
        let arriving: ArrivingRequests
        let daemon = Locked<Daemon?>(nil)
        let active = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        let suspended = Locked<[ObjectIdentifier: Waiting]>([:])
        let suspendedLimit: Int

        init(handler: @escaping Handler, suspendedLimit: Int, arriving: ArrivingRequests) {
            self.handler = handler
            self.arriving = arriving
            self.suspendedLimit = max(suspendedLimit, 1)
        }
    }

    /// MHD's daemon handle; MHD's own calls on it are thread-safe.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A suspended request waiting for its answer.
    private final class Waiting: @unchecked Sendable {
        // The connection is MHD's, valid until the request completes; it is resumed once, by `answer`.
        private let connection: OpaquePointer
        private weak var core: Core?
        let response = Locked<ServerResponse?>(nil)

        init(connection: OpaquePointer, core: Core) {
            self.connection = connection
            self.core = core
        }

        /// Keeps the answer and resumes the connection; MHD then calls the handler again, which queues it.
        /// Only the first answer counts.
        func answer(_ answer: ServerResponse) {
            let first = response.withLock { response in
                defer { if response == nil { response = answer } }
                return response == nil
            }
            guard first,
                core?.suspended.withLock({ $0.removeValue(forKey: ObjectIdentifier(self)) }) != nil
            else { return }
            MHD_resume_connection(connection)
        }
    }
}

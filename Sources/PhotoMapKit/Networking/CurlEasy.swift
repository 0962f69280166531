import CCurl
import Foundation

/// One libcurl easy handle, reused across requests so connections stay alive.
/// Not Sendable: a handle belongs to one thread at a time, its owner's.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    /// curl_global_init must run once before any handle exists.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init() {
        _ = Self.globalInit
        // curl_easy_init fails only when out of memory, where nothing else would work either.
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// Fetches `url` with GET and returns the last response after redirects.
    func get(_ url: String, redirectProtocols: String, timeouts: HTTPTimeouts, maximumBodyBytes: Int?) throws -> HTTPResponse {
        let collector = ResponseCollector(maximumBodyBytes: maximumBodyBytes)
        // The handle keeps pointers to this call's buffers: drop them all when it returns
        // (the connection cache survives a reset, so keep-alive still works).
        defer { curl_easy_reset(handle) }
        let code: CURLcode = withExtendedLifetime(collector) {
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                errors[0] = 0
                let context = Unmanaged.passUnretained(collector).toOpaque()
                set(CURLOPT_URL, url)
                // Only http(s), for the first URL and for every redirect: never file://, ftp:// or the like.
                set(CURLOPT_PROTOCOLS_STR, "http,https")
                set(CURLOPT_REDIR_PROTOCOLS_STR, redirectProtocols)
                set(CURLOPT_FOLLOWLOCATION, 1)
                set(CURLOPT_MAXREDIRS, 5)
                set(CURLOPT_NOSIGNAL, 1)  // timeouts without SIGALRM, safe with threads
                set(CURLOPT_CONNECTTIMEOUT_MS, Int(timeouts.connect * 1000))
                set(CURLOPT_TIMEOUT_MS, Int(timeouts.total * 1000))
                // A server that stalls mid-body is cut off long before the total timeout.
                set(CURLOPT_LOW_SPEED_LIMIT, 1)
                set(CURLOPT_LOW_SPEED_TIME, max(Int(timeouts.stall), 1))
                set(CURLOPT_ACCEPT_ENCODING, "")
                set(CURLOPT_USERAGENT, HTTPClient.userAgent)
                photomap_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                photomap_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
                    guard let data, let context else { return 0 }
                    let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
                    return collector.appendBody(UnsafeRawBufferPointer(start: data, count: size * count))
                })
                photomap_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
                photomap_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
                    guard let data, let context else { return 0 }
                    let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
                    collector.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
                    return size * count
                })
                photomap_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
                return curl_easy_perform(handle)
            }
        }
        guard code == CURLE_OK else {
            if collector.exceededLimit {
                throw HTTPError.transport(code: Int(CURLE_WRITE_ERROR.rawValue),
                                          message: "the answer is larger than \(maximumBodyBytes ?? 0) bytes",
                                          url: HTTPError.redacted(url))
            }
            let detail = String(decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            throw HTTPError.transport(code: Int(code.rawValue), message: message, url: HTTPError.redacted(url))
        }
        var status = 0
        photomap_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
    }

    private func set(_ option: CURLoption, _ value: String) {
        photomap_curl_set_string(handle, option, value)
    }

    private func set(_ option: CURLoption, _ value: Int) {
        photomap_curl_set_long(handle, option, value)
    }
}

/// Collects one transfer's headers and body from libcurl's callbacks.
private final class ResponseCollector {
    var body = Data()
    var headers: [String: String] = [:]
    var exceededLimit = false
    let maximumBodyBytes: Int?

    init(maximumBodyBytes: Int?) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Returns the bytes taken; fewer than offered makes libcurl abort the transfer.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let maximumBodyBytes, body.count + bytes.count > maximumBodyBytes {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Each response in a redirect chain starts with its status line: keep only the last one's fields.
        if bytes.starts(with: "HTTP/".utf8) {
            headers = [:]
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        var value = bytes[(colon + 1)...]
        while let first = value.first, isSpace(first) { value = value.dropFirst() }
        while let last = value.last, isSpace(last) { value = value.dropLast() }
        headers[name] = String(decoding: value, as: UTF8.self)
    }
}

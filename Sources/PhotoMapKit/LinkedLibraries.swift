// SPDX-License-Identifier: Apache-2.0
import CCrypto
import CCurl
import CJPEG
import CPNG
import CSQLite
import Glibc

/// The C libraries photomap runs with, as each reports itself at run time (`photomap --version`).
public enum LinkedLibraries {
    /// One library: its name, its version, and what else it says (libcurl's own libraries) or how
    /// the version was found when the library cannot say.
    public struct Version: Sendable, Equatable {
        public var name: String
        public var version: String
        public var detail: String?
    }

    /// libcurl, libpng, libjpeg-turbo, SQLite, libcrypto and the C library, in that order.
    public static func versions() -> [Version] {
        [curl(), png(), jpeg(), sqlite(), crypto(), glibc()]
    }

    /// curl_version_info: libcurl's version and those of the libraries it was built with, read only
    /// as far as the running library's `age` says its struct goes.
    static func curl() -> Version {
        // CURLVERSION_NOW, a macro Swift does not import, is by definition the one before CURLVERSION_LAST.
        guard let info = curl_version_info(CURLversion(CURLVERSION_LAST.rawValue - 1))?.pointee
        else { return Version(name: "libcurl", version: "unknown") }
        let age = Int(info.age.rawValue)
        let parts: [(Int, UnsafePointer<CChar>?, String)] = [
            (0, info.ssl_version, ""), (0, info.libz_version, "zlib/"), (4, info.brotli_version, "brotli/"),
            (7, info.zstd_version, "zstd/"), (1, info.libidn, "libidn2/"), (3, info.libssh_version, ""),
            (5, info.nghttp2_version, "nghttp2/"), (5, info.quic_version, ""),
        ]
        let detail = parts.compactMap { minimumAge, text, prefix in
            age >= minimumAge ? text.map { prefix + String(cString: $0) } : nil
        }
        return Version(
            name: "libcurl", version: info.version.map { String(cString: $0) } ?? "unknown",
            detail: detail.isEmpty ? nil : detail.joined(separator: ", "))
    }

    /// png_get_libpng_ver: the running libpng's version string.
    static func png() -> Version {
        Version(name: "libpng", version: png_get_libpng_ver(nil).map { String(cString: $0) } ?? "unknown")
    }

    /// libjpeg's API (jpeglib.h) has no call for the library's version: at run time it reports only
    /// the API level it implements (JMSG_VERSION in its message table, "6b" for libjpeg62) and its
    /// copyright line. libjpeg-turbo's own version is what its headers said when photomap was built.
    static func jpeg() -> Version {
        var manager = jpeg_error_mgr()
        _ = jpeg_std_error(&manager)
        let apiLevel = manager.jpeg_message_table.flatMap { table in
            Int32(JMSG_VERSION.rawValue) <= manager.last_jpeg_message ? table[Int(JMSG_VERSION.rawValue)] : nil
        }.map { String(cString: $0).split(separator: " ").first.map(String.init) ?? "" }
        let number = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        let built = "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
        return Version(
            name: "libjpeg-turbo", version: built,
            detail: "version from its headers at build time; at run time the library reports only the libjpeg API "
                + (apiLevel ?? "unknown"))
    }

    /// sqlite3_libversion: the running SQLite's version.
    static func sqlite() -> Version {
        Version(name: "SQLite", version: sqlite3_libversion().map { String(cString: $0) } ?? "unknown")
    }

    /// OpenSSL_version: the running libcrypto's version ("OpenSSL 3.0.17 1 Jul 2025" gives 3.0.17).
    static func crypto() -> Version {
        let text = OpenSSL_version(Int32(OPENSSL_VERSION)).map { String(cString: $0) } ?? ""
        let words = text.split(separator: " ")
        return Version(
            name: "libcrypto", version: words.count > 1 ? String(words[1]) : "unknown",
            detail: words.first.map { "\($0)" })
    }

    /// confstr(_CS_GNU_LIBC_VERSION): the running GNU C library's version ("glibc 2.36").
    static func glibc() -> Version {
        var text = [CChar](repeating: 0, count: 64)
        let length = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
        let reported =
            length > 0 && length <= text.count
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return Version(name: "glibc", version: reported.split(separator: " ").last.map(String.init) ?? "unknown")
    }
}

// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// The library's layers, lowest first: a target may depend on and import only those before it.
/// scripts/check-layers holds the targets below to this order (scripts/test runs it first).
let layers = [
    "PhotoMapSupport", "PhotoMapModel", "PhotoMapNetworking", "PhotoMapKit", "PhotoMapServer", "PhotoMapCLI",
]

/// scripts/sanitize's builds (the debug configuration, for @testable imports and the checks -O keeps) set
/// PHOTOMAP_OPTIMISE=library: the code the tests run is optimised, the tests themselves are not, which
/// compile in about two thirds of the time -O takes (2 cores, ASan: 359 s against 507 s).
let optimised: [SwiftSetting] = Context.environment["PHOTOMAP_OPTIMISE"] == "library" ? [.unsafeFlags(["-O"])] : []

let package = Package(
    name: "photomap",
    products: [
        .executable(name: "photomap", targets: ["photomap"]),
        .executable(name: "photomap-fixture-images", targets: ["photomap-fixture-images"]),
        .library(name: "PhotoMapKit", targets: ["PhotoMapKit"]),
        // For bench/ too: IndexBench reports SQLite's errors as the library does.
        .library(name: "PhotoMapSupport", targets: ["PhotoMapSupport"]),
        // For bench/ too: the benchmarks build places and photos.
        .library(name: "PhotoMapModel", targets: ["PhotoMapModel"]),
        // For Fuzz/, the fuzz targets' package, which drives the command line through PhotoMap.main.
        .library(name: "PhotoMapCLI", targets: ["PhotoMapCLI"]),
        // For Fuzz/ too: the targets libFuzzer runs there, and photomap-fuzz-replay runs here.
        .library(name: "PhotoMapFuzzTargets", targets: ["PhotoMapFuzzTargets"]),
        // For bench/, the benchmarks' package: its search baseline scans the index file with SQLite itself.
        .library(name: "CSQLite", targets: ["CSQLite"]),
    ],
    targets: [
        // Each C library from Debian comes in twice: `CLib…`, a system library (its headers and flags, by
        // pkg-config), and `C…`, photomap's own C for it (Sources/C…: a small header in include/ and
        // the .c file: the typed wrappers of variadic calls, the decoders that keep their setjmp), which
        // links the library and is what the Swift code imports.
        .systemLibrary(
            name: "CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurl", dependencies: ["CLibCurl"], linkerSettings: [.linkedLibrary("curl")]),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(
            name: "CPNG", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .target(name: "CJPEG", dependencies: ["CLibJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(
            name: "CLibSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CSQLite", dependencies: ["CLibSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CCrypto", dependencies: ["CLibCrypto"], linkerSettings: [.linkedLibrary("crypto")]),
        .systemLibrary(
            name: "CLibMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "CMicroHTTPD", dependencies: ["CLibMicroHTTPD"], linkerSettings: [.linkedLibrary("microhttpd")]),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "CPQ", dependencies: ["CLibPQ"], linkerSettings: [.linkedLibrary("pq")]),
        // `photomap import`: EXIF metadata (libexif) and HEIC/HEIF images (libheif, through libde265).
        .systemLibrary(
            name: "CLibExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .target(name: "CExif", dependencies: ["CLibExif"], linkerSettings: [.linkedLibrary("exif")]),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // Users' passwords (Argon2id) and session tokens (a CSPRNG), for `photomap users` and `serve`'s sign-in.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // `--gpx` tracks: libxml2's streaming reader (xmlTextReader), in bounded memory whatever the file's size.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "CXML2", dependencies: ["CLibXML2"], linkerSettings: [.linkedLibrary("xml2")]),
        // The lowest layer: files written whole, locks, pools, SHA-256, SQLite, the JSON reader and
        // writer, the text of descriptions. It knows nothing of photos, places or Flickr.
        .target(
            name: "PhotoMapSupport", dependencies: ["CCrypto", "CSQLite", "CSystem", "CXML2"], swiftSettings: optimised),
        // The records and their vocabulary: places, photos and their images, licences, audiences and roles,
        // coordinates, Flickr's ids. Plain values; it knows nothing of fetching, storing or pages.
        .target(name: "PhotoMapModel", dependencies: ["PhotoMapSupport"], swiftSettings: optimised),
        // GETs over libcurl: the blocking client (REST), the event loop (images), the one retry decision.
        // It knows nothing of Flickr or of what it fetches.
        .target(name: "PhotoMapNetworking", dependencies: ["PhotoMapSupport", "CCurl"], swiftSettings: optimised),
        // Pages/Assets (the pages' script, style and placeholder) are copied beside the binary.
        .target(
            name: "PhotoMapKit",
            dependencies: [
                "PhotoMapSupport", "PhotoMapModel", "PhotoMapNetworking", "CCurl", "CPNG", "CJPEG", "CSQLite",
                "CCrypto", "CPQ", "CExif", "CHeif", "CSystem", "CXML2", "CSodium",
            ],
            resources: [.copy("Pages/Assets")], swiftSettings: optimised),
        // `photomap serve`: the HTTP server (libmicrohttpd), its routes, sign-in and the edits it takes. The
        // top of the library: nothing below it knows it is served.
        .target(
            name: "PhotoMapServer",
            dependencies: ["PhotoMapKit", "PhotoMapNetworking", "PhotoMapModel", "PhotoMapSupport", "CMicroHTTPD"],
            swiftSettings: optimised),
        // glibc functions and constants Swift's Glibc module leaves out (wcwidth, O_TMPFILE).
        .systemLibrary(name: "CSystem"),
        .target(
            name: "PhotoMapCLI",
            dependencies: [
                "PhotoMapServer", "PhotoMapKit", "PhotoMapNetworking", "PhotoMapModel", "PhotoMapSupport", "CSystem",
            ],
            swiftSettings: optimised),
        // The Swift runtime and Foundation linked in (swiftc's -static-stdlib, with the static libraries
        // Foundation needs named, as SwiftPM's --static-swift-stdlib would): a command starts in about
        // 15 ms instead of 23 ms spent resolving their symbols, most of what `find` costs. Release builds
        // only: the sanitizers' runtimes (scripts/sanitize's debug-configuration builds) cannot take a static Foundation (TSan's
        // allocator aborts in its first free).
        .executableTarget(
            name: "photomap", dependencies: ["PhotoMapCLI"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xlinker", "--start-group",
                        "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization",
                        "-lCoreFoundation",
                        "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
                        "-lswiftDispatch", "-ldispatch",
                        "-lBlocksRuntime", "-Xlinker", "--end-group",
                    ], .when(configuration: .release))
            ]),
        .executableTarget(
            name: "photomap-fixture-images", dependencies: ["PhotoMapKit", "PhotoMapModel", "PhotoMapSupport"]),
        // The fuzz targets (parsers of outside data and their properties), and their seeds run once each,
        // without libFuzzer: `scripts/sanitize address` replays them; Fuzz/ fuzzes with them.
        .target(
            name: "PhotoMapFuzzTargets",
            dependencies: ["PhotoMapServer", "PhotoMapKit", "PhotoMapModel", "PhotoMapSupport", "PhotoMapCLI"],
            path: "Fuzz/Targets",
            swiftSettings: optimised),
        .executableTarget(name: "photomap-fuzz-replay", dependencies: ["PhotoMapFuzzTargets"], path: "Fuzz/Replay"),
        // Starts the loopback servers and temporary folders both test targets use.
        .target(
            name: "PhotoMapTestSupport",
            dependencies: ["PhotoMapKit", "PhotoMapNetworking", "PhotoMapSupport", "CJPEG"],
            path: "Tests/PhotoMapTestSupport"),
        .testTarget(
            name: "PhotoMapKitTests",
            dependencies: [
                "PhotoMapServer", "PhotoMapKit", "PhotoMapNetworking", "PhotoMapModel", "PhotoMapSupport",
                "PhotoMapTestSupport",
            ]),
        .testTarget(
            name: "PhotoMapCLITests",
            dependencies: [
                "PhotoMapCLI", "PhotoMapKit", "PhotoMapNetworking", "PhotoMapModel", "PhotoMapSupport",
                "PhotoMapTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "photomap",
    products: [
        .executable(name: "photomap", targets: ["photomap"]),
        .executable(name: "photomap-fixture-images", targets: ["photomap-fixture-images"]),
        .executable(name: "photomap-bench-index", targets: ["photomap-bench-index"]),
        .library(name: "PhotoMapKit", targets: ["PhotoMapKit"]),
        // For Fuzz/, the fuzz targets' package, which drives the command line through PhotoMap.main.
        .library(name: "PhotoMapCLI", targets: ["PhotoMapCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Pages/Assets (the pages' script, style and placeholder) are copied beside the binary.
        .target(name: "PhotoMapKit", dependencies: ["CCurl", "CPNG", "CJPEG", "CSQLite", "CCrypto", "CMicroHTTPD"],
                resources: [.copy("Pages/Assets")]),
        // glibc functions Swift's Glibc module leaves out (wcwidth).
        .systemLibrary(name: "CSystem"),
        .target(name: "PhotoMapCLI", dependencies: ["PhotoMapKit", "CSystem"]),
        .executableTarget(name: "photomap", dependencies: ["PhotoMapCLI"]),
        .executableTarget(name: "photomap-fixture-images", dependencies: ["PhotoMapKit"]),
        // bench/search.sh: fills a local index with generated photos and times searches.
        .executableTarget(name: "photomap-bench-index", dependencies: ["PhotoMapKit"], path: "bench/IndexBench"),
        // Starts the loopback servers and temporary folders both test targets use.
        .target(name: "PhotoMapTestSupport", dependencies: ["PhotoMapKit", "CJPEG"], path: "Tests/PhotoMapTestSupport"),
        .testTarget(name: "PhotoMapKitTests", dependencies: ["PhotoMapKit", "PhotoMapTestSupport"]),
        .testTarget(name: "PhotoMapCLITests", dependencies: ["PhotoMapCLI", "PhotoMapKit", "PhotoMapTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

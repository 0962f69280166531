// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// photomap's fuzz targets: a package of its own, so that `swift build` and `swift test` in the
// repository never build them. `scripts/fuzz` builds it with AddressSanitizer and libFuzzer's
// coverage instrumentation, links libFuzzer's driver (libclang_rt.fuzzer_no_main) and runs it.
let package = Package(
    name: "photomap-fuzz",
    dependencies: [.package(name: "photomap", path: "..")],
    targets: [
        // libFuzzer's entry point, LLVMFuzzerRunDriver, declared for Swift (the toolchain's runtime provides it).
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(
            name: "PhotoMapFuzz",
            dependencies: [
                "CLibFuzzer",
                .product(name: "PhotoMapFuzzTargets", package: "photomap"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

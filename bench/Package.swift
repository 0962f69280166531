// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// photomap's benchmarks: a package of their own, so that the main package's builds (the tests', the
// sanitizers', the release one) never compile or link them. The bench/*.sh scripts build them
// optimised (`swift build --package-path bench -c release`) beside the photomap they time.
let kit = Target.Dependency.product(name: "PhotoMapKit", package: "photomap")
let model = Target.Dependency.product(name: "PhotoMapModel", package: "photomap")

let package = Package(
    name: "photomap-bench",
    dependencies: [.package(name: "photomap", path: "..")],
    targets: [
        // search.sh: fills a local index with generated photos and times searches beside a LIKE scan.
        .executableTarget(
            name: "photomap-bench-index",
            dependencies: [
                kit, model, .product(name: "PhotoMapSupport", package: "photomap"),
                .product(name: "CSQLite", package: "photomap"),
            ],
            path: "IndexBench"),
        // find.sh: times `photomap find` over varied queries and checks its answers against the parsed gazetteer.
        .executableTarget(name: "photomap-bench-find", dependencies: [kit, model], path: "FindBench"),
        // json.sh: times JSONReader reading a listing beside JSONDecoder and JSONSerialization.
        .executableTarget(name: "photomap-bench-json", dependencies: [kit, model], path: "JSONBench"),
        // places.sh: names random land points; counts where the nearest-city rule disagrees.
        .executableTarget(name: "photomap-bench-places", dependencies: [kit, model], path: "PlacesBench"),
        // world-map.sh: the map of everything's tiles from the aggregates beside the naive way.
        .executableTarget(name: "photomap-bench-world-map", dependencies: [kit, model], path: "WorldMapBench"),
    ],
    swiftLanguageModes: [.v6]
)

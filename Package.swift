// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gvingest",
    products: [
        .executable(name: "gvingest", targets: ["gvingest"]),
        .library(name: "CatalogKit", targets: ["CatalogKit"]),
    ],
    targets: [
        // libxml2 from the system (Debian: libxml2-dev); the module map and shim only.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libcurl from the system (Debian: libcurl4-openssl-dev), for mail over SMTP; the module map and shim only.
        .systemLibrary(name: "CLibCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The only module that touches libxml2: copies everything out into Swift values.
        .target(name: "SafeLibXML", dependencies: ["CLibXML2"]),
        // Model and pipeline stages.
        .target(name: "CatalogKit", dependencies: ["SafeLibXML", "CLibCurl"]),
        // Thin command-line front end.
        .executableTarget(name: "gvingest", dependencies: ["CatalogKit", "SafeLibXML"]),
        // A real HTTP/1.1 server on 127.0.0.1 with injectable faults, for tests and benchmarks only.
        .target(name: "LoopbackServer", path: "Tests/LoopbackServer"),
        // The real catalog pages published by others, unpacked from Fixtures/realworld.tar.xz into .build on first use,
        // for tests and benchmarks only.
        .target(name: "PublishedPages", path: "Tests/PublishedPages"),
        // Tests' tools that a machine may lack: skipped with an install hint, or required in CI (GVINGEST_REQUIRE_TOOLS).
        .target(name: "TestSupport", dependencies: ["PublishedPages"], path: "Tests/TestSupport"),
        // Benchmarks and test support: run with `swift run -c release <name>`; never part of the product.
        // The crawl benchmarks' site (a listing and its course pages), defined once for every server and client below.
        .target(name: "BenchmarkSite", dependencies: ["LoopbackServer"], path: "benchmarks/BenchmarkSite"),
        .executableTarget(name: "gvingest-fetch-bench", dependencies: ["BenchmarkSite", "CatalogKit", "LoopbackServer"],
                          path: "benchmarks/FetchBench"),
        // A trivial keep-alive client against the loopback server (or, with --target, another server of the same site):
        // shows the server is not the crawl benchmark's bottleneck.
        .executableTarget(name: "gvingest-server-bench", dependencies: ["BenchmarkSite", "LoopbackServer"], path: "benchmarks/ServerBench"),
        // The same site served standalone, so the gvingest binary and Scrapy crawl the same server.
        .executableTarget(name: "gvingest-bench-server", dependencies: ["BenchmarkSite", "LoopbackServer"], path: "benchmarks/BenchServer"),
        .executableTarget(name: "gvingest-prereq-bench", dependencies: ["CatalogKit", "PublishedPages"], path: "benchmarks/RequisiteBench"),
        .executableTarget(name: "gvingest-parse-stages", dependencies: ["CatalogKit", "SafeLibXML", "PublishedPages"], path: "benchmarks/ParseStages"),
        // Writes synthetic snapshots, for the diff benchmark and the crash test only.
        .executableTarget(name: "SyntheticSnapshots", dependencies: ["CatalogKit"], path: "benchmarks/SyntheticSnapshots"),
        // Fuzzing (docs/FUZZING.md), never part of the product. CLibFuzzer only declares libFuzzer's driver
        // entry (-sanitize=fuzzer links libFuzzer itself); FuzzHarness holds the harnesses, shared with the
        // regression tests; one libFuzzer target each (plain builds replay saved inputs instead).
        .systemLibrary(name: "CLibFuzzer", path: "fuzz/CLibFuzzer"),
        .target(name: "FuzzHarness", dependencies: ["CatalogKit", "CLibFuzzer"], path: "fuzz/Harness"),
        .executableTarget(name: "gvingest-fuzz-html", dependencies: ["FuzzHarness"], path: "fuzz/HTML"),
        .executableTarget(name: "gvingest-fuzz-requisites", dependencies: ["FuzzHarness"], path: "fuzz/Requisites"),
        .testTarget(name: "SafeLibXMLTests", dependencies: ["SafeLibXML", "PublishedPages"]),
        .testTarget(name: "CatalogKitTests", dependencies: ["CatalogKit", "SafeLibXML", "LoopbackServer", "FuzzHarness", "PublishedPages", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["gvingest", "SyntheticSnapshots", "CatalogKit", "LoopbackServer", "PublishedPages", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

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
        // The only module that touches libxml2: copies everything out into Swift values.
        .target(name: "SafeLibXML", dependencies: ["CLibXML2"]),
        // Model and pipeline stages.
        .target(name: "CatalogKit", dependencies: ["SafeLibXML"]),
        // Thin command-line front end.
        .executableTarget(name: "gvingest", dependencies: ["CatalogKit"]),
        // A real HTTP/1.1 server on 127.0.0.1 with injectable faults, for tests and benchmarks only.
        .target(name: "LoopbackServer", path: "Tests/LoopbackServer"),
        // Benchmarks: run with `swift run -c release <name>`; never part of the product.
        .executableTarget(name: "gvingest-fetch-bench", dependencies: ["CatalogKit", "LoopbackServer"], path: "Benchmarks/FetchBench"),
        .executableTarget(name: "gvingest-prereq-bench", dependencies: ["CatalogKit"], path: "Benchmarks/RequisiteBench"),
        .testTarget(name: "SafeLibXMLTests", dependencies: ["SafeLibXML"]),
        .testTarget(name: "CatalogKitTests", dependencies: ["CatalogKit", "SafeLibXML", "LoopbackServer"]),
        .testTarget(name: "EndToEndTests", dependencies: ["gvingest", "LoopbackServer"]),
    ],
    swiftLanguageModes: [.v6]
)

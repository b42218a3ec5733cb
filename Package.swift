// swift-tools-version:6.0
import PackageDescription

// Two switches of the compiler, measured in docs/performance.md ("fifteenth step"):
// - `-disable-type-layout`: values of the larger structs and enums (a record, an optional ATT PDU) are copied
//   and destroyed by code made for each type, not through the type's metadata (about 270 instructions a record);
// - `-enable-lexical-lifetimes=false`: a local reference may be released at its last use rather than at the end
//   of its scope, so the optimizer removes more retain and release pairs (about 90 instructions a record with
//   `--summary-only`, 310 in JSON). Nothing in these targets needs a reference kept to the end of its scope.
// SwiftPM refuses a product built with such flags as a dependency by version (by path, branch or revision it
// accepts it); `BLETRACE_PLAIN_FLAGS=1` in the environment leaves them out, for a package that needs that.
let compilerSettings: [SwiftSetting] = Context.environment["BLETRACE_PLAIN_FLAGS"] != nil ? [] :
    [.unsafeFlags(["-Xfrontend", "-disable-type-layout", "-Xfrontend", "-enable-lexical-lifetimes=false"])]

let package = Package(
    name: "bletrace",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "BLETrace", targets: ["BLETrace"]),
        .executable(name: "bletrace", targets: ["bletrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]
        ),
        .systemLibrary(
            name: "CZlibShim",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Byte scans sixteen bytes an instruction for the output's hot loops (static inline C, inlined by Swift).
        .target(name: "CByteScan"),
        .target(
            name: "BLETrace",
            dependencies: ["CPcap", "CZlibShim", "CByteScan", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                           .product(name: "Yams", package: "Yams"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "_CryptoExtras", package: "swift-crypto"),
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: compilerSettings
        ),
        // The MCP server (`bletrace mcp`): the library's queries as tools, on the official Swift SDK.
        .target(
            name: "BLETraceMCP",
            dependencies: ["BLETrace", .product(name: "MCP", package: "swift-sdk")]
        ),
        .executableTarget(
            name: "bletrace",
            dependencies: [
                "BLETrace",
                "BLETraceMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: compilerSettings
        ),
        .testTarget(
            name: "BLETraceTests",
            dependencies: ["BLETrace", "BLETraceMCP"],
            // Read from the source tree by the regression test, not bundled.
            exclude: ["Fuzzing/Regressions"]
        ),
    ]
)

// The libFuzzer harness, built only by scripts/fuzz.sh (it sets BLETRACE_FUZZ=1 and -sanitize=fuzzer).
if Context.environment["BLETRACE_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "BLETraceFuzz",
        dependencies: ["BLETrace"],
        path: "Fuzz/BLETraceFuzz"
    ))
    package.products.append(.executable(name: "bletrace-fuzz", targets: ["BLETraceFuzz"]))
}

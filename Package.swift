// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "bletrace",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "BLETrace", targets: ["BLETrace"]),
        .executable(name: "bletrace", targets: ["bletrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]
        ),
        .target(
            name: "BLETrace",
            dependencies: ["CPcap"]
        ),
        .executableTarget(
            name: "bletrace",
            dependencies: [
                "BLETrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "BLETraceTests",
            dependencies: ["BLETrace"]
        ),
    ]
)

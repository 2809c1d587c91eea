// swift-tools-version: 6.0
// A command-line tool that uses ReactiveCocoaSwift as an app would: one dependency, one product,
// one `import`. Here the dependency is this repository, by path; in your own package it is
//
//     .package(url: "https://github.com/OWNER/ReactiveCocoaSwift.git", from: "0.1.0")
//
// and the product `.product(name: "ReactiveCocoaSwift", package: "ReactiveCocoaSwift")`.
import Foundation
import PackageDescription

// A dependency by path is named after its folder, whatever the clone is called.
let library = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "CommandLineTool",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: library.path)],
    targets: [
        .executableTarget(
            name: "CommandLineTool",
            dependencies: [.product(name: "ReactiveCocoaSwift", package: library.lastPathComponent)]
        ),
    ]
)

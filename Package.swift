// swift-tools-version: 6.0
// ReactiveCocoa 2.5's model of streams of values over time, as small layered Swift modules.
// Dependencies point one way only (CONTRIBUTING.md, "Module layering"):
//   Tuples, Disposables <- Schedulers <- Signals <- Sequences, Subjects <- Command
import PackageDescription

let modules: [(name: String, dependencies: [String])] = [
    ("Tuples", []),
    ("Disposables", []),
    ("Schedulers", ["Disposables"]),
    ("Signals", ["Disposables", "Schedulers", "Tuples"]),
    ("Sequences", ["Signals", "Schedulers", "Tuples"]),
    ("Subjects", ["Signals"]),
    ("Command", ["Subjects", "Signals", "Schedulers"]),
]

/// Modules whose issue has landed, and so have a test target of their own.
let testedModules: Set<String> = ["Tuples", "Disposables", "Schedulers", "Signals", "Sequences", "Subjects", "Command"]

let package = Package(
    name: "ReactiveCocoaSwift",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: modules.map { .library(name: $0.name, targets: [$0.name]) },
    targets: modules.map { module in
        .target(
            name: module.name,
            dependencies: module.dependencies.map { .target(name: $0) },
            // The delivery machinery's README lives beside its code.
            exclude: module.name == "Signals" ? ["Delivery/README.md"] : []
        )
    } + modules.filter { testedModules.contains($0.name) }.map { module in
        .testTarget(
            name: "\(module.name)Tests",
            dependencies: [.target(name: module.name), "TestSupport"] + module.dependencies.map { .target(name: $0) }
        )
    } + [
        .target(name: "TestSupport", dependencies: ["Disposables", "Schedulers", "Signals"], path: "Tests/TestSupport"),
        .testTarget(name: "ReadmeTests", dependencies: ["Tuples", "Disposables", "Schedulers", "Signals", "Sequences", "Subjects", "Command", "TestSupport"]),
        // Every check of bad input in the library, triggered from one place (issue "Bad input, collected").
        .testTarget(name: "BadInputCatalogTests", dependencies: ["Tuples", "Disposables", "Schedulers", "Signals", "Sequences", "Subjects", "Command", "TestSupport"]),
        // User code in the Swift 6 language mode, compiled with warnings as errors: the proof that
        // the APIs need no escape hatch (issue 18).
        .testTarget(
            name: "Swift6ModeTests",
            dependencies: ["Disposables", "Schedulers", "Signals", "Subjects", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: modules.map { .target(name: $0.name) },
            path: "Benchmarks",
            // What the scenarios measure and how to read the figures, beside the code.
            exclude: ["README.md"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

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

/// Each module's own test targets, in `Tests/<name>`: `<Module>Tests`, and for `Signals`, the largest
/// module, three, so that changing one test rebuilds a small target. A module's test target depends
/// on that module, its dependencies and `TestSupport`, and imports nothing else: tests that exercise
/// several modules together live in the targets below that depend on them all.
let moduleTests: [(name: String, module: String)] = [
    ("TuplesTests", "Tuples"),
    ("DisposablesTests", "Disposables"),
    ("SchedulersTests", "Schedulers"),
    ("SignalsTests", "Signals"),
    ("SignalsOperatorsTests", "Signals"),
    ("SignalsConcurrencyTests", "Signals"),
    ("SequencesTests", "Sequences"),
    ("SubjectsTests", "Subjects"),
    ("CommandTests", "Command"),
]

/// The umbrella module: one `import ReactiveCocoaSwift` for all seven.
let umbrella = "ReactiveCocoaSwift"

let package = Package(
    name: "ReactiveCocoaSwift",
    // The floor is the first OS releases whose standard library has the `Synchronization` module
    // (`Mutex`, `Atomic`), which the library's locks and counters are built on.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [.library(name: umbrella, targets: [umbrella])] + modules.map { .library(name: $0.name, targets: [$0.name]) },
    targets: [.target(name: umbrella, dependencies: modules.map { .target(name: $0.name) })] + modules.map { module in
        .target(
            name: module.name,
            dependencies: module.dependencies.map { .target(name: $0) },
            // The delivery machinery's README lives beside its code.
            exclude: module.name == "Signals" ? ["Delivery/README.md"] : []
        )
    } + moduleTests.map { test in
        let module = modules.first { $0.name == test.module }!
        return .testTarget(
            name: test.name,
            dependencies: [.target(name: module.name), "TestSupport"] + module.dependencies.map { .target(name: $0) }
        )
    } + [
        .target(name: "TestSupport", dependencies: ["Disposables", "Schedulers", "Signals"], path: "Tests/TestSupport"),
        // A user's code with the one umbrella import, in the Swift 6 language mode with warnings as
        // errors: the shapes that once misled a new user now compile, and mean what they say.
        .testTarget(
            name: "AdoptionTests",
            dependencies: [.target(name: umbrella), "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        // Other libraries' types (RxSwift's `DisposeBag`, Combine's `AnyCancellable`, …) as a
        // module imported beside this library declares them, and the test that they keep their
        // plain names there: the library's hints for those names never make them ambiguous.
        .target(name: "PeerLookalikes", path: "Tests/PeerLookalikes"),
        .testTarget(
            name: "CoexistenceTests",
            dependencies: [.target(name: umbrella), "PeerLookalikes", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(name: "ReadmeTests", dependencies: ["Tuples", "Disposables", "Schedulers", "Signals", "Sequences", "Subjects", "Command", "TestSupport"]),
        // Every check of bad input in the library, triggered from one place.
        .testTarget(name: "BadInputCatalogTests", dependencies: ["Tuples", "Disposables", "Schedulers", "Signals", "Sequences", "Subjects", "Command", "TestSupport"]),
        // User code in the Swift 6 language mode, compiled with warnings as errors: the proof that
        // the APIs need no escape hatch.
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

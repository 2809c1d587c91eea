import Disposables
import Synchronization
import TestSupport
import XCTest

/// Stress tests: ``Stress/rounds`` rounds of 8 threads each (1,000 in release, 400 in debug, 200
/// under a sanitizer), each under a watchdog, bounded in time and deterministic in outcome. Eight
/// threads add, remove, swap in and dispose at once; by the end of each round every disposable has
/// had `dispose()` called exactly once (counted by the disposable itself, so a second call shows
/// even though its action would not run again), and a child removed from a compound before the
/// compound's disposal was not disposed by it.
final class DisposablesStressTests: LeakCheckedTestCase {
    private static let steps = 8

    /// A disposable that counts the calls of `dispose()`, not only the first.
    private final class CountingDisposable: Disposable, @unchecked Sendable {
        private let calls = Atomic<Int>(0)

        var disposeCalls: Int { calls.load(ordering: .acquiring) }

        override func dispose() {
            calls.add(1, ordering: .acquiringAndReleasing)
            super.dispose()
        }
    }

    /// Eight threads' disposables, `steps` each, made before the round.
    private static func disposables() -> [[CountingDisposable]] {
        (0..<8).map { _ in (0..<steps).map { _ in CountingDisposable() } }
    }

    /// Which thread disposes the container in round `round`, before which of its steps.
    private static func disposal(inRound round: Int) -> (thread: Int, step: Int) {
        (round % 8, round / 8 % steps)
    }

    func testSerialDisposable_swapsRacingDisposeFromEightThreads_disposeEachDisposableOnce() {
        Stress.forEachRound("serial disposable: swaps racing dispose") { round in
            let serial = SerialDisposable()
            let disposables = Self.disposables()
            let disposal = Self.disposal(inRound: round)
            race(threads: 8) { index in
                for step in 0..<Self.steps {
                    // Two threads dispose: the round's, and the one opposite at its last step.
                    if (index, step) == disposal || (index == (disposal.thread + 4) % 8 && step == Self.steps - 1) {
                        serial.dispose()
                    }
                    let disposable = disposables[index][step]
                    let wasDisposed = serial.isDisposed
                    // What a swap hands back is the swapper's to dispose.
                    let previous = serial.swap(disposable)
                    previous?.dispose()
                    if wasDisposed {
                        XCTAssertNil(previous, "round \(round): a disposed serial handed something back")
                        XCTAssertEqual(disposable.disposeCalls, 1, "round \(round): swapped into a disposed serial and not disposed at once")
                    }
                    _ = serial.disposable
                }
            }
            XCTAssertNil(serial.disposable, "round \(round)")
            let calls = disposables.joined().map(\.disposeCalls)
            XCTAssertEqual(calls, Array(repeating: 1, count: calls.count), "round \(round): dispose() calls per disposable")
        }
    }

    /// The getter reads what is held while swaps replace and drop it: each read is a live
    /// disposable (AddressSanitizer would see a freed one), and once the serial is disposed and
    /// the round's references are gone, no disposable outlives it. The serial keeps what it
    /// holds in one word, without a lock (its invariant is in SerialDisposable.swift).
    func testSerialDisposable_gettersRacingSwapsAndDispose_readLiveDisposablesAndLeakNothing() {
        final class WeakBox: @unchecked Sendable { weak var disposable: Disposable? }
        Stress.forEachRound("serial disposable: getters racing swaps") { round in
            let serial = SerialDisposable()
            let made = (0..<8).map { _ in (0..<Self.steps).map { _ in WeakBox() } }
            race(threads: 8) { index in
                for step in 0..<Self.steps {
                    if index.isMultiple(of: 2) {
                        let disposable = Disposable()
                        made[index][step].disposable = disposable
                        // What comes back is dropped here, undisposed, as an app may drop it.
                        _ = serial.swap(disposable)
                    } else if let held = serial.disposable {
                        // Touches the object read: freed memory here is AddressSanitizer's report.
                        _ = held.isDisposed
                    }
                    if index == round % 8, step == Self.steps / 2 { serial.dispose() }
                }
            }
            XCTAssertTrue(serial.isDisposed, "round \(round)")
            XCTAssertNil(serial.disposable, "round \(round)")
            let alive = made.joined().filter { $0.disposable != nil }.count
            XCTAssertEqual(alive, 0, "round \(round): disposables outlived the serial that held them")
        }
    }

    /// One thread reads the getter in a loop while another swaps fresh disposables in and drops
    /// what comes back, many times: the shape a hostile review crashed 8 runs of 10 in release
    /// (and 10 of 10 under AddressSanitizer in release) while the getter's retain could move past
    /// its store; every read is a live disposable.
    func testSerialDisposable_aGetterLoopRacingASwapLoop_readsOnlyLiveDisposables() {
        let swaps = BuildKind.raceRounds(optimized: 200_000, debug: 50_000, sanitized: 20_000)
        withWatchdog("serial disposable: a getter loop racing a swap loop") {
            let serial = SerialDisposable(Disposable())
            let stop = Atomic<Bool>(false)
            let reads = Atomic<Int>(0)
            let reader = startThread("reads the serial's disposable in a loop") {
                while !stop.load(ordering: .acquiring) {
                    // Touches the object read: a freed one is a crash or AddressSanitizer's report.
                    if let held = serial.disposable, !held.isDisposed { reads.add(1, ordering: .relaxed) }
                }
            }
            // Swaps go on until the reader has read a thousand times among them, however late its
            // thread starts on a loaded machine (within the usual deadline).
            let deadline = Date().addingTimeInterval(defaultWaitSeconds)
            var swapped = 0
            while swapped < swaps || (reads.load(ordering: .relaxed) < 1_000 && Date() < deadline) {
                _ = serial.swap(Disposable())
                swapped += 1
            }
            stop.store(true, ordering: .releasing)
            XCTAssertTrue(eventually { reader.isSet })
            XCTAssertGreaterThanOrEqual(reads.load(ordering: .relaxed), 1_000, "the reader read too little while the swaps ran")
            serial.dispose()
            XCTAssertNil(serial.disposable)
        }
    }

    func testCompoundDisposable_addsAndRemovesRacingDisposeFromEightThreads_disposeEachChildOnce() {
        Stress.forEachRound("compound disposable: adds and removes racing dispose") { round in
            let blockRuns = Counter()
            // Half the rounds, a compound with a block of its own, its first child.
            let compound = round.isMultiple(of: 2) ? CompoundDisposable { blockRuns.increment() } : CompoundDisposable()
            let children = Self.disposables()
            let disposal = Self.disposal(inRound: round)
            // (thread, step) of the children removed while the compound was not yet disposed.
            let removedInTime = Lock<Set<[Int]>>([])
            let removed = Lock<Set<[Int]>>([])
            race(threads: 8) { index in
                for step in 0..<Self.steps {
                    if (index, step) == disposal { compound.dispose() }
                    let child = children[index][step]
                    let wasDisposed = compound.isDisposed
                    compound.add(child)
                    if wasDisposed {
                        XCTAssertEqual(child.disposeCalls, 1, "round \(round): added to a disposed compound and not disposed at once")
                    }
                    // Every other step, the thread removes its child of the step before.
                    guard step % 2 == 1 else { continue }
                    compound.remove(children[index][step - 1])
                    removed.withLock { _ = $0.insert([index, step - 1]) }
                    if !compound.isDisposed { removedInTime.withLock { _ = $0.insert([index, step - 1]) } }
                }
            }
            XCTAssertTrue(compound.isDisposed, "round \(round)")
            XCTAssertEqual(compound.childCount, 0, "round \(round): the disposed compound still holds children")
            if round.isMultiple(of: 2) { XCTAssertEqual(blockRuns.value, 1, "round \(round)") }
            for index in 0..<8 {
                for step in 0..<Self.steps {
                    let calls = children[index][step].disposeCalls
                    let label = "round \(round), thread \(index)'s child \(step)"
                    if removedInTime.withLock({ $0.contains([index, step]) }) {
                        XCTAssertEqual(calls, 0, "\(label): removed before the compound's disposal, and disposed")
                    } else if removed.withLock({ $0.contains([index, step]) }) {
                        // Removed as the compound was disposed: either took it first.
                        XCTAssertLessThanOrEqual(calls, 1, label)
                    } else {
                        XCTAssertEqual(calls, 1, label)
                    }
                }
            }
        }
    }

    func testCompoundOfSerials_swapsRacingTheCompoundsDisposal_disposeEachDisposableOnce() {
        Stress.forEachRound("compound of serials: swaps racing the compound's disposal") { round in
            let compound = CompoundDisposable()
            // One serial per thread, in the compound; their content swapped while it is disposed.
            let serials = (0..<8).map { _ in SerialDisposable() }
            for serial in serials { compound.add(serial) }
            let disposables = Self.disposables()
            let disposal = Self.disposal(inRound: round)
            race(threads: 8) { index in
                for step in 0..<Self.steps {
                    if (index, step) == disposal { compound.dispose() }
                    // Each thread swaps into its own serial and its neighbour's.
                    let serial = serials[(index + step % 2) % 8]
                    serial.swap(disposables[index][step])?.dispose()
                }
            }
            XCTAssertTrue(serials.allSatisfy(\.isDisposed), "round \(round)")
            let calls = disposables.joined().map(\.disposeCalls)
            XCTAssertEqual(calls, Array(repeating: 1, count: calls.count), "round \(round): dispose() calls per disposable")
        }
    }
}

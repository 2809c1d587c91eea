import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// Chains nested too deeply for a thread's stack stop with a message naming what nests, never with
/// a bare crash, and chains of everyday depth still work: on a thread with a 512 KiB
/// stack, the size of Apple's secondary threads and of Dispatch's workers.
///
/// The chains that must stop run in a child process (`expectStop`); the depth that stops is far
/// past what any build's stack holds there (a hundred thousand operators), so the check, not an
/// overflow, must be what ends the child.
final class DeepChainTests: XCTestCase {
    private let smallStack = 512 * 1024
    /// Far deeper than a 512 KiB stack holds, in any build.
    private let tooDeep = 100_000
    /// What a 512 KiB stack holds in every build: subscribing a `map` takes about 400 bytes of it
    /// in a debug build, 110 in a release build (a sanitizer's, more), and a subscription may use
    /// three eighths.
    private let moderate = BuildKind.isSanitized ? 150 : BuildKind.isDebug ? 350 : 1_000

    /// Runs `body` on a plain thread with a 512 KiB stack, as a block of a queue scheduler (so a
    /// subscription starts there, synchronously), and waits for it.
    private func onASmallStack(_ body: @escaping @Sendable () -> Void) {
        onAPlainThread(stackSize: smallStack) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler(body)
        }
    }

    // MARK: Signal chains

    func testSubscribingAMapChainTooDeep_stopsWithAMessageNamingTheOperator() {
        let depth = tooDeep
        XCTAssertNil(expectStop("maps", in: self, messageContains: "subscribing a signal chain nests more deeply than this thread's stack allows, at the operator whose sink is MapSink") {
            onASmallStack {
                let (output, input) = Signal<Int, Never>.pipe()
                var signal = output
                for _ in 0..<depth { signal = signal.map { $0 + 1 } }
                signal.subscribe(next: { _ in })
                input.sendNext(0)
            }
        })
    }

    func testSubscribingAFilterChainOverASynchronousSourceTooDeep_stops() {
        let depth = tooDeep
        XCTAssertNil(expectStop("filters", in: self, messageContains: "one map composing the functions, scan, merge or concat of an array of signals") {
            onASmallStack {
                var signal = Signal<Int, Never>.return(1)
                for _ in 0..<depth { signal = signal.filter { $0 > 0 } }
                signal.subscribe(next: { _ in })
            }
        })
    }

    /// Depths from 50 up, 5% apart, to far past what any build's stack holds: a chain of each,
    /// in turn, either works or stops with the message, so a depth at which what follows the
    /// subscription (a delivery nesting inner subscriptions, values larger than the check's
    /// frames assume) overflows the stack before the check stops it ends the child with a bare
    /// crash, which fails the case.
    private static let sweep: [Int] = Array(sequence(first: 50) { $0 < 20_000 ? $0 + max(1, $0 / 20) : nil })

    /// A value of 512 bytes, which every level of a chain copies as it delivers it.
    private struct Large: Sendable {
        var words = InlineArray<64, Int>(repeating: 0)
        func bumped() -> Large {
            var copy = self
            copy.words[0] += 1
            return copy
        }
    }

    func testDeliveriesThatNestDeeperThanTheirSubscription_stopWithTheMessageAtEveryDepth_neverABareCrash() {
        // Found by a hostile review, in a release build on a 512 KiB thread: with the check at
        // subscription alone, each shape crashed with a bare SIGSEGV over a band of depths below
        // the one that stopped with the message (1,020 to 1,160 `flattenMap`s, 1,540 to 1,570
        // `flatMapLatest`s, 800 to 1,500 `map`s of a 512-byte value).
        let message = "subscribing a signal chain nests more deeply than this thread's stack allows"
        let shapes: [(name: String, run: @Sendable (Int) -> Void)] = [
            // Each level's inner signal is subscribed while the value is delivered, nesting the
            // delivery one subscription deeper a level.
            ("flattenMaps of Signal.return", { depth in
                var signal = Signal<Int, Never>.return(0)
                for _ in 0..<depth { signal = signal.flattenMap { Signal.return($0 + 1) } }
                signal.subscribe(next: { _ in })
            }),
            ("flatMapLatests of Signal.return, sent to after subscribing", { depth in
                let (output, input) = Signal<Int, Never>.pipe()
                var signal = output
                for _ in 0..<depth { signal = signal.flatMapLatest { Signal.return($0 + 1) } }
                let subscription = signal.subscribe(next: { _ in })
                input.sendNext(0)
                subscription.dispose()
            }),
            // Operators that keep the last value take more stack to deliver through than to
            // subscribe (with half of the stack for the subscription: 1,725 to 2,000 crashed).
            ("scans over Signal.return", { depth in
                var signal = Signal<Int, Never>.return(0)
                for _ in 0..<depth { signal = signal.scan(0) { _, value in value } }
                signal.subscribe(next: { _ in })
            }),
            ("distinctUntilChanged(by:)s over Signal.return", { depth in
                var signal = Signal<Int, Never>.return(0)
                for _ in 0..<depth { signal = signal.distinctUntilChanged(by: { _, _ in false }) }
                signal.subscribe(next: { _ in })
            }),
            ("distinctUntilChanged(by:)s of a 64-byte value over Signal.return", { depth in
                var signal = Signal<(Int, Int, Int, Int, Int, Int, Int, Int), Never>.return((0, 0, 0, 0, 0, 0, 0, 0))
                for _ in 0..<depth { signal = signal.distinctUntilChanged(by: { _, _ in false }) }
                signal.subscribe(next: { _ in })
            }),
            // Each level copies the value as it delivers it: 512 bytes a level more than an `Int`.
            ("maps of a 512-byte value over Signal.return", { depth in
                var signal = Signal<Large, Never>.return(Large())
                for _ in 0..<depth { signal = signal.map { $0.bumped() } }
                signal.subscribe(next: { _ in })
            }),
            ("maps of a 512-byte value, sent to after subscribing", { depth in
                let (output, input) = Signal<Large, Never>.pipe()
                var signal = output
                for _ in 0..<depth { signal = signal.map { $0.bumped() } }
                let subscription = signal.subscribe(next: { _ in })
                input.sendNext(Large())
                subscription.dispose()
            }),
        ]
        for shape in shapes {
            XCTAssertNil(expectStop(shape.name, in: self, messageContains: message, timeout: 300) {
                for depth in DeepChainTests.sweep {
                    onASmallStack { shape.run(depth) }
                }
            })
        }
    }

    func testAShortChainOfLargeValues_subscribesAndDelivers_onASmallStack() {
        // Its share of the stack is scaled down to the values' size, not to nothing.
        let depth = 20
        let received = Lock<[Int]>([])
        onASmallStack {
            var signal = Signal<Large, Never>.return(Large())
            for _ in 0..<depth { signal = signal.map { $0.bumped() } }
            signal.subscribe(next: { value in received.withLock { $0.append(value.words[0]) } })
            let (output, input) = Signal<Large, Never>.pipe()
            var hot = output
            for _ in 0..<depth { hot = hot.map { $0.bumped() } }
            let subscription = hot.subscribe(next: { value in received.withLock { $0.append(value.words[0]) } })
            input.sendNext(Large())
            subscription.dispose()
        }
        XCTAssertEqual(received.withLock { $0 }, [depth, depth])
    }

    func testOneLevelOfLargeValuesUnderAChainOfInts_setsAsideOnlyItsOwnShare() {
        // A level of 4 KiB values sets aside what delivering them takes, and the `Int` levels
        // subscribed over it are judged as `Int` levels: a first version scaled the whole chain's
        // share to the large level's values, and stopped 49 `Int` maps over it.
        struct Page: Sendable { var words = InlineArray<512, Int>(repeating: 0) }
        let depth = moderate
        let received = Lock<[Int]>([])
        onASmallStack {
            let (output, input) = Signal<Page, Never>.pipe()
            var signal = output.map { $0.words[0] }
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            let subscription = signal.subscribe(next: { value in received.withLock { $0.append(value) } })
            input.sendNext(Page())
            subscription.dispose()
            var fromReturn = Signal<Page, Never>.return(Page()).map { $0.words[0] }
            for _ in 0..<depth { fromReturn = fromReturn.map { $0 + 1 } }
            fromReturn.subscribe(next: { value in received.withLock { $0.append(value) } })
        }
        XCTAssertEqual(received.withLock { $0 }, [depth, depth])
    }

    func testAModeratelyDeepMapChain_subscribesAndDelivers_onASmallStack() {
        let depth = moderate
        let received = Lock<[Int]>([])
        let completed = Counter()
        onASmallStack {
            let (output, input) = Signal<Int, Never>.pipe()
            var signal = output
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            let subscription = signal.subscribe(next: { value in received.withLock { $0.append(value) } }, completed: { completed.increment() })
            input.sendNext(0)
            input.sendNext(10)
            input.sendCompleted()
            subscription.dispose()
        }
        XCTAssertEqual(received.withLock { $0 }, [depth, depth + 10])
        XCTAssertEqual(completed.value, 1)
    }

    /// A short chain subscribed where the app's own recursion has used most of the stack already
    /// (three fifths of a 512 KiB stack) subscribes and delivers: its share is counted from where
    /// its `subscribe` started, not from the top of the stack, so it does not stop for the app's
    /// frames. (Counted from the top, it stopped with the message.)
    func testAShortChainSubscribedDeepInTheAppsOwnRecursion_doesNotStop() {
        let received = Lock<[Int]>([])
        onASmallStack {
            recurse(untilUsedFraction: 0.6) {
                let (output, input) = Signal<Int, Never>.pipe()
                var signal = output
                for _ in 0..<20 { signal = signal.map { $0 + 1 } }
                let subscription = signal.subscribe(next: { value in received.withLock { $0.append(value) } })
                input.sendNext(0)
                var fromReturn = Signal<Int, Never>.return(100)
                for _ in 0..<20 { fromReturn = fromReturn.map { $0 + 1 } }
                fromReturn.subscribe(next: { value in received.withLock { $0.append(value) } })
                subscription.dispose()
            }
        }
        XCTAssertEqual(received.withLock { $0 }, [20, 120])
    }

    func testAModeratelyDeepMapChainOverASynchronousSource_deliversFromTheBottomOfItsSubscription() {
        // The value goes through the chain from inside the innermost subscription: the
        // subscription's frames and the delivery's are on the stack together.
        let depth = moderate
        let received = Lock<[Int]>([])
        let completed = Counter()
        onASmallStack {
            var signal = Signal<Int, Never>.return(0)
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            signal.subscribe(next: { value in received.withLock { $0.append(value) } }, completed: { completed.increment() })
        }
        XCTAssertEqual(received.withLock { $0 }, [depth])
        XCTAssertEqual(completed.value, 1)
    }

    func testAChainJustShortOfTheLimit_subscribesDeliversFromItsBottomAndLetsGo_onTheSameThread() {
        // The check lets a subscription use three eighths of the stack, and counts on what follows it
        // through the chain (a value sent from its bottom, the disposable passed down, the release
        // of its sinks) fitting in the other half: as deep a chain as passes, in this build.
        let results = Lock<(depth: Int, received: [Int], completed: Int)>((0, [], 0))
        onASmallStack {
            guard let depth = DeepChainTests.deepestPassingChain() else { return }
            var signal = Signal<Int, Never>.return(0)
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            let subscription = signal.subscribe(
                next: { value in results.withLock { $0.received.append(value) } },
                completed: { results.withLock { $0.completed += 1 } }
            )
            subscription.dispose()
            results.withLock { $0.depth = depth }
            // A hot source: values sent after the subscription, from the thread's top.
            let (output, input) = Signal<Int, Never>.pipe()
            var hot = output
            for _ in 0..<depth { hot = hot.map { $0 + 1 } }
            let hotSubscription = hot.subscribe(next: { value in results.withLock { $0.received.append(value) } })
            input.sendNext(1)
            hotSubscription.dispose()
        }
        let (depth, received, completed) = results.withLock { $0 }
        XCTAssertGreaterThan(depth, 100)
        XCTAssertEqual(received, [depth, depth + 1])
        XCTAssertEqual(completed, 1)
    }

    /// The depth of a `map` chain as deep as a subscription made here passes the check with, in
    /// this build, measured rather than estimated: a sanitizer's frames are several times larger
    /// and do not grow linearly with the depth, so an estimate from two short chains overshot by
    /// half. Each step measures the stack used at the bottom of a chain and goes half of the way
    /// that is left to the share a subscription may use; each measured chain passed the check.
    private static func deepestPassingChain() -> Int? {
        // How much of the stack is used at the bottom of a subscription `depth` maps deep, as the
        // check sees it (under AddressSanitizer, a frame on its fake stack counts where it was made).
        func usedAtTheBottom(ofAChain depth: Int) -> Int {
            let used = Lock<Int>(0)
            var signal = Signal<Int, Never>(producer: { _ in
                used.withLock { $0 = StackCheck.usage()?.used ?? 0 }
                return nil
            })
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            signal.subscribe(next: { _ in })
            return used.withLock { $0 }
        }
        guard let (_, size) = StackCheck.usage() else { return nil }
        // What a subscription may use, counted from the stack's top: no more than the check allows
        // a subscription that starts anywhere below the top.
        let allowed = (size - StackCheck.reserve) / 16 * StackCheck.chainShareInSixteenths
        var depth = 20
        var used = usedAtTheBottom(ofAChain: depth)
        var perLevel = Double(usedAtTheBottom(ofAChain: 2 * depth) - used) / Double(depth)
        guard perLevel > 0 else { return nil }
        while true {
            let step = Int(Double(allowed - used) / perLevel / 2)
            guard step >= 5 else { break }
            let deeper = usedAtTheBottom(ofAChain: depth + step)
            perLevel = max(perLevel, Double(deeper - used) / Double(step))
            depth += step
            used = deeper
        }
        // The chain the test subscribes ends in `Signal.return`, whose level checks too.
        return depth - 5
    }

    func testLettingGoOfAHundredThousandMapsNeverSubscribed_doesNotOverflow() {
        // Each operator's signal holds its source: the release is a loop past a few levels.
        let depth = tooDeep
        let released = Counter()
        onAPlainThread(stackSize: smallStack) {
            var signal = Signal<Int, Never>.never
            for _ in 0..<depth { signal = signal.map { $0 + 1 } }
            withExtendedLifetime(signal) {}
            signal = .never
            released.increment()
        }
        XCTAssertEqual(released.value, 1)
    }

    // MARK: Lifetimes

    /// An owner whose lifetime's end lets go of the next owner, which ends that one's lifetime
    /// inside the first one's end.
    private final class Owner: Sendable {
        let lifetime: Lifetime
        private let token: Lifetime.Token
        let next = Next()

        init() {
            (lifetime, token) = Lifetime.make()
            lifetime.observeEnded { [next] in next.owner.withLock { $0 = nil } }
        }
    }

    private final class Next: Sendable {
        let owner = Lock<Owner?>(nil)
    }

    /// The first of `count` owners, each holding the next; each one's end releases the next.
    private static func chainOfOwners(_ count: Int, ended: Counter) -> Owner {
        let first = Owner()
        var last = first
        for _ in 1..<count {
            let owner = Owner()
            owner.lifetime.observeEnded { ended.increment() }
            last.next.owner.withLock { $0 = owner }
            last = owner
        }
        return first
    }

    func testLifetimesEndingEachOtherTooDeep_stopWithAMessage() {
        // Far more than a 512 KiB stack holds in any build (each end nests a pipe's delivery and
        // a release).
        let depth = 20_000
        XCTAssertNil(expectStop("lifetimes", in: self, messageContains: "Lifetime: ending a lifetime nests more deeply than this thread's stack allows") {
            onAPlainThread(stackSize: smallStack) {
                var first: Owner? = DeepChainTests.chainOfOwners(depth, ended: Counter())
                withExtendedLifetime(first) {}
                first = nil
            }
        })
    }

    func testLifetimesEndingEachOtherModeratelyDeep_allEnd() {
        let depth = BuildKind.isSanitized ? 20 : 100
        let ended = Counter()
        onAPlainThread(stackSize: smallStack) {
            var first: Owner? = DeepChainTests.chainOfOwners(depth, ended: ended)
            withExtendedLifetime(first) {}
            first = nil
        }
        XCTAssertEqual(ended.value, depth - 1)
    }
}

/// Calls itself until `fraction` of this thread's stack is used, then runs `body` there: the app's
/// own recursion, under which a subscription is made.
@inline(never)
private func recurse(untilUsedFraction fraction: Double, _ body: () -> Void) {
    guard let (used, size) = StackCheck.usage() else { return body() }
    if Double(used) >= Double(size) * fraction { return body() }
    // A frame of some size of its own, which the optimizer cannot drop.
    var padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutablePointer(to: &padding) { pointer in
        pointer.withMemoryRebound(to: Int.self, capacity: 16) { $0[0] = used }
        recurse(untilUsedFraction: fraction, body)
    }
}

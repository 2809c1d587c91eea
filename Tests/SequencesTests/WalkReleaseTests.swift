import Disposables
import Dispatch
import Foundation
import Schedulers
import Sequences
import Signals
import Synchronization
import TestSupport
import XCTest

/// Every method that walks a list lets go of what it has passed when nothing else holds the list,
/// as a `for … in` loop does; a list the caller holds keeps its nodes, evaluated once.
///
/// Each walk runs over a 200,000-element list of `Token`s, each made when its node is evaluated,
/// that nothing but the walk holds (a temporary). A walk that kept the list's first node would
/// keep every node, and with them every token, alive until it ended: `foldLeft` did (the caller's
/// reference to the head lived for the whole call), and peaked at 200,000 live tokens where a
/// `for … in` loop keeps one.
final class WalkReleaseTests: LeakCheckedTestCase {
    #if DEBUG
    // Debug builds walk some ten times slower, and the sanitizer runs slower still; a quarter (a
    // twentieth under a sanitizer) of the size still shows a list kept whole.
    let size = BuildKind.rounds(50_000, sanitized: 10_000)
    #else
    let size = 200_000
    #endif

    func testForIn_theReference() {
        let probe = Probe(size)
        var count = 0
        for _ in probe.list() { count += 1 }
        XCTAssertEqual(count, size)
        probe.assertReleasedAsItWent()
    }

    func testFoldLeft() {
        let probe = Probe(size)
        XCTAssertEqual(probe.list().foldLeft(0) { sum, token in sum + token.value }, (0..<size).reduce(0, +))
        probe.assertReleasedAsItWent()
    }

    func testAll() {
        let probe = Probe(size)
        XCTAssertTrue(probe.list().all { $0.value >= 0 })
        probe.assertReleasedAsItWent()
    }

    func testAny() {
        let probe = Probe(size)
        XCTAssertFalse(probe.list().any { $0.value < 0 })
        probe.assertReleasedAsItWent()
    }

    func testFirstPassing() {
        let probe = Probe(size)
        XCTAssertEqual(probe.list().first(passing: { $0.value == self.size - 1 })?.value, size - 1)
        probe.assertReleasedAsItWent()
    }

    func testMakeIterator() {
        let probe = Probe(size)
        var iterator = probe.list().makeIterator()
        var count = 0
        while iterator.next() != nil { count += 1 }
        XCTAssertEqual(count, size)
        probe.assertReleasedAsItWent()
    }

    func testEquality() {
        let probe = Probe(size)
        let other = Probe(size)
        XCTAssertTrue(probe.list() == other.list())
        probe.assertReleasedAsItWent()
        other.assertReleasedAsItWent()
    }

    /// An array keeps every element, so the tokens count for nothing here: what must go is the
    /// list's nodes, the first of them before the walk reaches the last element.
    func testArray() {
        let probe = Probe(size)
        let array = probe.list().array
        XCTAssertEqual(array.count, size)
        probe.assertFirstNodeReleasedBeforeTheEnd()
    }

    func testArrayInitializer() {
        let probe = Probe(size)
        let array = Array(probe.list())
        XCTAssertEqual(array.count, size)
        probe.assertFirstNodeReleasedBeforeTheEnd()
    }

    func testEager() {
        let probe = Probe(size)
        let eager = probe.list().eagerSequence
        XCTAssertTrue(eager.isEager)
        probe.assertFirstNodeReleasedBeforeTheEnd()
    }

    /// A variable handed over with `consume` is walked as a temporary is.
    func testConsumedVariable() {
        let probe = Probe(size)
        let list = probe.list()
        // Outside the assertion: its autoclosure would capture a copy, and the variable would
        // keep the list.
        let count = (consume list).foldLeft(0) { count, _ in count + 1 }
        XCTAssertEqual(count, size)
        probe.assertReleasedAsItWent()
    }

    /// `signal(on:)` on a scheduler that runs the walk after `subscribe` has returned: once the
    /// caller has let go of the signal, the walk alone holds the list.
    func testSignalOnAScheduler_whenNeitherTheListNorTheSignalIsHeld() {
        let probe = Probe(size)
        let scheduler = TestScheduler()
        let sum = Lock(0)
        let completed = Flag()
        probe.list().signal(on: scheduler).subscribe(
            next: { token in sum.withLock { $0 += token.value } },
            completed: { completed.set() }
        )
        scheduler.run()
        XCTAssertTrue(completed.isSet)
        XCTAssertEqual(sum.withLock { $0 }, (0..<size).reduce(0, +))
        probe.assertReleasedAsItWent()
    }

    /// The walk starts at once on the background thread, while the caller still holds the signal
    /// (until `subscribe` returns), and the signal holds the list's head: the first element waits
    /// for the caller to let go of the signal, or how far the walk got meanwhile would count.
    func testSignalOnABackgroundScheduler_whenNeitherTheListNorTheSignalIsHeld() {
        let probe = Probe(size)
        let done = expectation(description: "completed")
        let count = Counter()
        let signalReleased = DispatchSemaphore(value: 0)
        probe.list().signal(on: Scheduler.background()).subscribe(
            next: { token in
                if token.value == 0 { _ = signalReleased.wait(timeout: .now() + 10) }
                count.increment()
            },
            completed: { done.fulfill() }
        )
        signalReleased.signal()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(count.value, size)
        probe.assertReleasedAsItWent()
    }

    /// A list the caller holds keeps its nodes: every walk after the first reads them, and no
    /// block runs twice.
    func testAListTheCallerHolds_isWalkedAgainFromWhatIsMemoised() {
        let probe = Probe(1_000)
        let list = probe.list()
        let values = Array(0..<1_000)
        XCTAssertEqual(list.foldLeft(0) { $0 + $1.value }, values.reduce(0, +))
        XCTAssertEqual(probe.live.value, 1_000, "the list holds every token it evaluated")
        XCTAssertEqual(list.array.map(\.value), values)
        XCTAssertEqual(Array(list).map(\.value), values)
        XCTAssertEqual(list.map { $0.value }.array, values)
        XCTAssertTrue(list.all { $0.value < 1_000 })
        XCTAssertTrue(list.any { $0.value == 999 })
        XCTAssertEqual(list.first(passing: { $0.value == 500 })?.value, 500)
        XCTAssertTrue(list == list.map { $0 })
        XCTAssertEqual(list.eagerSequence.array.map(\.value), values)
        var walked = 0
        for token in list { walked += token.value }
        XCTAssertEqual(walked, values.reduce(0, +))
        let sum = Lock(0)
        list.signal(on: .immediate).subscribe(next: { token in sum.withLock { $0 += token.value } })
        XCTAssertEqual(sum.withLock { $0 }, values.reduce(0, +))
        XCTAssertEqual(probe.made.value, 1_000, "each element was made once")
        XCTAssertEqual(probe.live.value, 1_000)
        _ = consume list
        XCTAssertEqual(probe.live.value, 0)
    }
}

/// An element that counts the instances alive.
final class Token: Equatable, Sendable {
    let value: Int
    let live: Counter

    init(_ value: Int, _ live: Counter) {
        self.value = value
        self.live = live
        live.increment()
    }

    deinit { live.decrement() }

    static func == (lhs: Token, rhs: Token) -> Bool { lhs.value == rhs.value }
}

/// Makes a list of `size` tokens, each made when its node is evaluated, and watches the walk: the
/// most tokens alive when a token is made, and whether the list's first node was still alive when
/// the last token was made.
final class Probe: @unchecked Sendable {
    let size: Int
    let live = Counter()
    let made = Counter()
    private let mostAlive = Atomic(0)
    private let firstNodeAliveAtTheLast = Atomic(-1)
    /// Set once, before the walk, on the test's thread.
    private var firstNode: WeakReference<LazyList<Token>>?

    init(_ size: Int) {
        self.size = size
    }

    func list() -> LazyList<Token> {
        let list = LazyList(0..<size).map { [self] index in
            made.increment()
            _ = mostAlive.max(live.value, ordering: .relaxed)
            if index == size - 1 { firstNodeAliveAtTheLast.store(firstNode?.isAlive == true ? 1 : 0, ordering: .relaxed) }
            return Token(index, live)
        }
        firstNode = WeakReference(list)
        return list
    }

    /// At most a few tokens were alive at once, the first node went before the end, and nothing
    /// is left.
    func assertReleasedAsItWent(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(made.value, size, file: file, line: line)
        XCTAssertLessThanOrEqual(mostAlive.load(ordering: .relaxed), 3, "tokens alive at once", file: file, line: line)
        assertFirstNodeReleasedBeforeTheEnd(file: file, line: line)
        XCTAssertEqual(live.value, 0, file: file, line: line)
    }

    func assertFirstNodeReleasedBeforeTheEnd(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(made.value, size, file: file, line: line)
        XCTAssertEqual(firstNodeAliveAtTheLast.load(ordering: .relaxed), 0, "the first node was alive at the end", file: file, line: line)
    }
}

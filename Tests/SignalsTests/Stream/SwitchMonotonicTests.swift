import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// Switching is monotonic: once a value of inner signal n has been delivered, no value or error of
/// an older inner signal is, from any thread, for `switchToLatest`, `flatMapLatest`,
/// `Signal.switch` and `Signal.if`.
final class SwitchMonotonicTests: LeakCheckedTestCase {
    /// A switch over `inners` picked by the indices `keys` sends.
    private typealias Switching = @Sendable (Signal<Int, TestError>, [Signal<Int, TestError>]) -> Signal<Int, TestError>

    private static let kinds: [(String, Switching)] = [
        ("switchToLatest", { keys, inners in keys.map { inners[$0] }.switchToLatest() }),
        ("flatMapLatest", { keys, inners in keys.flatMapLatest { inners[$0] } }),
        ("Signal.switch", { keys, inners in
            Signal.switch(keys, cases: Dictionary(uniqueKeysWithValues: inners.enumerated().map { ($0, $1) }), default: nil)
        }),
        ("Signal.if", { keys, inners in Signal.if(keys.map { $0 == 0 }, then: inners[0], else: inners[1]) }),
    ]

    /// Two plain threads send, nonstop, into the current inner signal and the one before it,
    /// each value its inner's index, while the main thread switches to the next inner signal as
    /// soon as one of the current one's values has arrived: the indices delivered never go down.
    /// (Before switching checked at delivery, 1 to 10 rounds in 200 saw an older inner's value
    /// after a newer one's, for every kind.)
    func testSwitching_twoThreadsSendingIntoTheCurrentAndThePreviousInner_neverDeliversAnOlderInnersValueAfterANewerOnes() {
        let watchdog = Watchdog("monotonic switching under two sending threads")
        defer { watchdog.cancel() }
        for (kind, switching) in Self.kinds {
            let innerCount = kind == "Signal.if" ? 2 : 10
            let rounds = kind == "Signal.if" ? 600 : 200
            var failures = 0
            for round in 0..<rounds {
                if let failure = runRound(switching, innerCount: innerCount) {
                    failures += 1
                    if failures == 1 { XCTFail("\(kind), round \(round): \(failure)") }
                }
            }
            XCTAssertEqual(failures, 0, "\(kind): rounds in which an older inner's value followed a newer one's")
        }
    }

    /// One round: returns what went wrong, or `nil`.
    private func runRound(_ switching: Switching, innerCount: Int) -> String? {
        let pipes = (0..<innerCount).map { _ in Signal<Int, TestError>.pipe() }
        let (keys, keysInput) = Signal<Int, TestError>.pipe()
        let active = Lock(-1)
        let delivered = Lock([Int]())
        let stop = Flag()
        let subscription = switching(keys, pipes.map(\.0)).subscribe(next: { index in
            delivered.withLock { $0.append(index) }
            // A callback that gives up the processor keeps the other sender at the output's
            // serialization point, with its value past every check made before it.
            sched_yield()
        })
        let inputs = pipes.map(\.1)
        let senders = (0..<2).map { number in
            startThread("sender \(number)") {
                while !stop.isSet {
                    let index = active.withLock { $0 }
                    if index < 0 { continue }
                    inputs[index].sendNext(index)
                    if index > 0 { inputs[index - 1].sendNext(index - 1) }
                }
            }
        }
        var timedOut = false
        for index in 0..<innerCount {
            keysInput.sendNext(index)
            active.withLock { $0 = index }
            // The next switch comes once this inner's values arrive, so that each switch races
            // with values of the inner it replaces.
            if !pollWithoutRunningTheMainQueue({ delivered.withLock { $0.last == index } }) {
                timedOut = true
                break
            }
        }
        stop.set()
        XCTAssertTrue(senders.allSatisfy { flag in pollWithoutRunningTheMainQueue { flag.isSet } })
        subscription.dispose()
        let values = delivered.withLock { $0 }
        if timedOut { return "no value of the current inner arrived within the deadline (received \(values.count))" }
        if let drop = zip(values, values.dropFirst()).first(where: { $1 < $0 }) {
            return "\(drop.1) delivered after \(drop.0)"
        }
        return nil
    }

    /// An older inner signal's error that reaches the output after the switch is dropped, not
    /// delivered: the output goes on with the new inner signal. (Sent from inside the output's
    /// callback, the error is queued behind the callback; the switch inside the same callback
    /// replaces its inner before it is delivered.)
    func testSwitching_anOlderInnersErrorQueuedBeforeTheSwitch_isDroppedAndTheNewInnerGoesOn() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let events = Lock([String]())
        _ = outer.switchToLatest().subscribe(
            next: { value in
                events.withLock { $0.append("next \(value)") }
                if value == 1 {
                    aInput.sendError(.first)
                    outerInput.sendNext(b)
                    bInput.sendNext(2)
                }
            },
            error: { error in events.withLock { $0.append("error \(error)") } },
            completed: { events.withLock { $0.append("completed") } }
        )
        outerInput.sendNext(a)
        aInput.sendNext(1)
        bInput.sendNext(3)
        bInput.sendError(.second)
        XCTAssertEqual(events.withLock { $0 }, ["next 1", "next 2", "next 3", "error second"])
    }

    /// The same for values: an older inner's value queued before the switch is not delivered
    /// after the new inner's.
    func testSwitching_anOlderInnersValueQueuedBeforeTheSwitch_neverFollowsTheNewInnersValue() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let values = Lock([Int]())
        let subscription = outer.switchToLatest().subscribe(next: { value in
            values.withLock { $0.append(value) }
            if value == 1 {
                aInput.sendNext(10)
                outerInput.sendNext(b)
                bInput.sendNext(2)
                aInput.sendNext(11)
            }
        })
        outerInput.sendNext(a)
        aInput.sendNext(1)
        XCTAssertEqual(values.withLock { $0 }, [1, 2])
        // The callback holds the inputs, which hold the subscription.
        subscription.dispose()
    }

    /// A terminal event that cannot be dropped still ends the output after a dropped one queued
    /// before it: the source's error after an older inner's.
    func testSwitching_theSourcesErrorQueuedAfterADroppedInnerError_stillEndsTheOutput() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let events = Lock([String]())
        _ = outer.switchToLatest().subscribe(
            next: { value in
                events.withLock { $0.append("next \(value)") }
                aInput.sendError(.first)
                outerInput.sendNext(.never)
                outerInput.sendError(.second)
            },
            error: { error in events.withLock { $0.append("error \(error)") } }
        )
        outerInput.sendNext(a)
        aInput.sendNext(1)
        XCTAssertEqual(events.withLock { $0 }, ["next 1", "error second"])
    }
}

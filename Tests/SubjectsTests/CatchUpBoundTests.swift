import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import Synchronization
import TestSupport
import XCTest

/// A subscriber joining a replaying signal while a sender sends nonstop: the joining thread
/// replays the kept values, then delivers the live events held back meanwhile, until none are
/// held. A sender faster than the subscriber's callbacks once kept it catching up for ever, its
/// `subscribe` never returning, with the held events growing without limit (found by a hostile
/// review of `share(replay:)`). Now a sender that finds more than the bound held waits, once it
/// is outside every delivery, until the joining thread has taken them: `subscribe` returns.
final class CatchUpBoundTests: LeakCheckedTestCase {
    private let scheduler = QueueScheduler(name: "catch-up")

    func testReplaySubject_joinerWithASlowCallbackWhileASenderSendsNonstop_subscribeReturns() {
        let subject = ReplaySubject<Int, Never>(capacity: 1)
        joinWhileASenderSendsNonstop("ReplaySubject", to: subject, send: { subject.sendNext($0) })
    }

    func testShareReplay_joinerWithASlowCallbackWhileASenderSendsNonstop_subscribeReturns() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let shared = pipe.share(replay: 1)
        let staying = shared.subscribe(next: { _ in })
        joinWhileASenderSendsNonstop("share(replay: 1)", to: shared, send: { input.sendNext($0) })
        staying.dispose()
    }

    /// Every value reaches the joiner once, in order, while the sender waits at the bound: none
    /// is lost or repeated between the replay, the held events and the live ones.
    func testReplaySubject_joinerCatchingUpAtTheBound_getsEveryValueInOrder() {
        let watchdog = Watchdog("a replay subject's joiner catching up at the bound")
        defer { watchdog.cancel() }
        let subject = ReplaySubject<Int, Never>(capacity: 1)
        subject.sendNext(0)
        let received = Lock<[Int]>([])
        let replaying = Flag()
        let joined = Flag()
        let finished = startThread("joiner") { [scheduler] in
            scheduler.performAsCurrentScheduler {
                _ = subject.subscribe(next: { value in
                    // Slow while the replay runs: the sender runs ahead of it, past the bound.
                    if value == 0 {
                        replaying.set()
                        let end = DispatchTime.now().uptimeNanoseconds + 20_000_000
                        while DispatchTime.now().uptimeNanoseconds < end {}
                    }
                    received.withLock { $0.append(value) }
                })
                joined.set()
            }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { replaying.isSet })
        for value in 1...2_000 { subject.sendNext(value) }
        subject.sendCompleted()
        XCTAssertTrue(pollWithoutRunningTheMainQueue { finished.isSet && joined.isSet })
        XCTAssertTrue(eventually { received.withLock { $0.count } == 2_001 })
        XCTAssertEqual(received.withLock { $0 }, Array(0...2_000))
    }

    /// A sender waiting at the bound goes on once the member catching up is disposed from
    /// another thread: disposing ends the catch-up, and no waiter is left behind.
    func testReplaySubject_memberDisposedWhileASenderWaitsAtTheBound_releasesTheSender() {
        let watchdog = Watchdog("a catch-up's member disposed while a sender waits at the bound")
        defer { watchdog.cancel() }
        for _ in 0..<5 {
            let subject = ReplaySubject<Int, Never>(capacity: 1)
            subject.sendNext(0)
            let stop = Flag()
            let sent = Atomic<Int>(0)
            let replaying = Flag()
            let release = Flag()
            let subscription = DisposableBox()
            let joined = startThread("joiner") {
                // A plain thread: the replay runs on a background scheduler after subscribe returns.
                subscription.disposable = subject.subscribe(next: { value in
                    if value == 0 {
                        replaying.set()
                        _ = pollWithoutRunningTheMainQueue { release.isSet }
                    }
                })
            }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { replaying.isSet && joined.isSet })
            let sender = startThread("sender") {
                var value = 1
                while !stop.isSet {
                    subject.sendNext(value)
                    value += 1
                    sent.store(value, ordering: .relaxed)
                }
            }
            // Past the bound, the sender waits for the catch-up.
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sent.load(ordering: .relaxed) >= CatchUpBoundTests.bound })
            let before = sent.load(ordering: .relaxed)
            subscription.disposable?.dispose()
            release.set()
            XCTAssertTrue(
                pollWithoutRunningTheMainQueue { sent.load(ordering: .relaxed) > before + 10_000 },
                "the sender stayed stuck once the member catching up was disposed"
            )
            stop.set()
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sender.isSet })
        }
    }

    /// Ending the subject while a sender waits at the bound: the end is held like a value (its
    /// sender may wait too), the member gets exactly one terminal event once it has caught up,
    /// and every thread goes on.
    func testReplaySubject_endedWhileASenderWaitsAtTheBound_everyoneGoesOnAndTheMemberEndsOnce() {
        let watchdog = Watchdog("a replaying subject ended while a sender waits at the bound")
        defer { watchdog.cancel() }
        for round in 0..<6 {
            let subject = ReplaySubject<Int, TestError>(capacity: 1)
            subject.sendNext(0)
            let replaying = Flag()
            let release = Flag()
            let ends = Lock<[String]>([])
            let joined = startThread("joiner") { [scheduler] in
                scheduler.performAsCurrentScheduler {
                    _ = subject.subscribe(
                        next: { value in
                            if value == 0 {
                                replaying.set()
                                _ = pollWithoutRunningTheMainQueue { release.isSet }
                            }
                        },
                        error: { _ in ends.withLock { $0.append("error") } },
                        completed: { ends.withLock { $0.append("completed") } }
                    )
                }
            }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { replaying.isSet })
            let sent = Atomic<Int>(0)
            let sender = startThread("sender") {
                for value in 1...500 {
                    subject.sendNext(value)
                    sent.store(value, ordering: .relaxed)
                }
            }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sent.load(ordering: .relaxed) >= CatchUpBoundTests.bound })
            let ender = startThread("ender") {
                if round.isMultiple(of: 2) { subject.sendCompleted() } else { subject.sendError(.first) }
            }
            release.set()
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sender.isSet && joined.isSet && ender.isSet }, "round \(round): a thread stayed stuck")
            XCTAssertTrue(eventually { ends.withLock { $0.count } == 1 }, "round \(round)")
            XCTAssertEqual(ends.withLock { $0 }, [round.isMultiple(of: 2) ? "completed" : "error"], "round \(round)")
        }
    }

    /// The catch-up's bound: a subject input's.
    private static let bound = 64

    private func joinWhileASenderSendsNonstop(
        _ name: String, to signal: Signal<Int, Never>, send: @escaping @Sendable (Int) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let watchdog = Watchdog("\(name): a joiner catching up while a sender sends nonstop")
        defer { watchdog.cancel() }
        let stop = Flag()
        let sent = Atomic<Int>(0)
        let sender = startThread("nonstop sender") {
            var value = 0
            while !stop.isSet {
                send(value)
                value += 1
                sent.store(value, ordering: .relaxed)
            }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { sent.load(ordering: .relaxed) > 10_000 }, file: file, line: line)
        let returned = Flag()
        let delivered = Atomic<Int>(0)
        let joiner = startThread("joiner") { [scheduler] in
            scheduler.performAsCurrentScheduler {
                let subscription = signal.subscribe(next: { _ in
                    // The first value stands for the joining thread being preempted; the rest
                    // are slower than the sender's sends.
                    let count = delivered.add(1, ordering: .relaxed).newValue
                    let end = DispatchTime.now().uptimeNanoseconds + (count == 1 ? 5_000_000 : 20_000)
                    while DispatchTime.now().uptimeNanoseconds < end {}
                })
                returned.set()
                subscription.dispose()
            }
        }
        let returnedWhileSending = pollWithoutRunningTheMainQueue { returned.isSet }
        stop.set()
        XCTAssertTrue(pollWithoutRunningTheMainQueue { sender.isSet && joiner.isSet }, "\(name): the threads never finished", file: file, line: line)
        XCTAssertTrue(returnedWhileSending, "\(name): subscribe did not return while the sender kept sending", file: file, line: line)
    }
}

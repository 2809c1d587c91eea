import Foundation
import Disposables
import Signals
import Subjects
import TestSupport
import XCTest

final class ReplaySubjectTests: LeakCheckedTestCase {
    func testReplay_sendsTheLastCapacityValuesThenGoesLive() {
        let subject = ReplaySubject<Int, TestError>(capacity: 2)
        subject.sendNext(1)
        subject.sendNext(2)
        subject.sendNext(3)
        let recorder = subject.record()
        subject.sendNext(4)
        XCTAssertEqual(recorder.events, [.next(2), .next(3), .next(4)])
    }

    func testReplay_unlimitedByDefault_replaysEveryValueThenTheTerminalEvent() {
        let subject = ReplaySubject<Int, TestError>()
        for value in 0..<100 { subject.sendNext(value) }
        subject.sendError(.first)
        XCTAssertEqual(subject.record().events, (0..<100).map { .next($0) } + [.error(.first)])
    }

    func testReplay_capacityZeroReplaysOnlyTheTerminalEvent() {
        let subject = ReplaySubject<Int, TestError>(capacity: 0)
        subject.sendNext(1)
        let live = subject.record()
        subject.sendNext(2)
        subject.sendCompleted()
        XCTAssertEqual(live.events, [.next(2), .completed])
        XCTAssertEqual(subject.record().events, [.completed])
    }

    func testReplay_emptySubjectReplaysNothing() {
        let subject = ReplaySubject<Int, TestError>(capacity: 3)
        let recorder = subject.record()
        XCTAssertEqual(recorder.events, [])
        subject.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testReplay_disposingDuringTheReplayStopsIt() {
        let subject = ReplaySubject<Int, Never>()
        for value in 0..<10 { subject.sendNext(value) }
        let received = Recorder<Int>()
        let box = DisposableBox()
        box.disposable = subject.subscribe(next: { value in
            received.record(value)
            if value == 2 { box.disposable?.dispose() }
        })
        // The replay ran inside `subscribe`, before the box held the disposable: dispose now.
        if received.values.count == 10 { box.disposable?.dispose() }
        subject.sendNext(10)
        XCTAssertFalse(received.values.contains(10))
    }

    func testReplay_subscriberSubscribingInsideACallbackGetsTheReplayIncludingTheCurrentValue() {
        let subject = ReplaySubject<Int, Never>()
        let inner = Recorder<Int>()
        let subscribed = Counter()
        subject.subscribe(next: { value in
            guard value == 2, subscribed.value == 0 else { return }
            subscribed.increment()
            subject.subscribe(next: { inner.record($0) })
        })
        subject.sendNext(1)
        subject.sendNext(2)
        subject.sendNext(3)
        XCTAssertEqual(inner.values, [1, 2, 3])
        // The subscriber captured its own subject: end it, or the two keep each other alive.
        subject.sendCompleted()
    }

    func testReplay_racingSendsAndSubscriptionsLeaveNoGapAndNoDuplicate() {
        for _ in 0..<200 {
            let subject = ReplaySubject<Int, Never>()
            let recorders = Lock<[Recorder<Int>]>([])
            let completions = DispatchSemaphore(value: 0)
            race(threads: 4) { index in
                if index == 0 {
                    for value in 0..<100 { subject.sendNext(value) }
                    subject.sendCompleted()
                } else {
                    let recorder = Recorder<Int>()
                    recorders.withLock { $0.append(recorder) }
                    // From a plain thread the replay runs on a background scheduler: wait for its end.
                    subject.subscribe(next: { recorder.record($0) }, completed: { completions.signal() })
                }
            }
            for _ in 1..<4 {
                XCTAssertTrue(completions.waitForSignal(), "a replay never completed")
            }
            for recorder in recorders.withLock({ $0 }) {
                XCTAssertEqual(recorder.values, Array(0..<100))
            }
        }
    }

    func testReplay_keepsNoMoreThanItsCapacityAlive() {
        let subject = ReplaySubject<LifetimeToken, Never>(capacity: 10)
        var tokens: [WeakReference<LifetimeToken>] = []
        for _ in 0..<1_000 {
            let token = LifetimeToken()
            tokens.append(WeakReference(token))
            subject.sendNext(token)
        }
        XCTAssertEqual(tokens.filter(\.isAlive).count, 10)
        XCTAssertTrue(tokens.suffix(10).allSatisfy(\.isAlive))
        for _ in 0..<1_000_000 { subject.sendNext(LifetimeToken()) }
        XCTAssertEqual(tokens.filter(\.isAlive).count, 0)
    }

    func testReplay_aMillionSendsIntoCapacityTenReplayTheLastTen() {
        let count = BuildKind.rounds(1_000_000, sanitized: 200_000)
        let subject = ReplaySubject<Int, Never>(capacity: 10)
        for value in 0..<count { subject.sendNext(value) }
        XCTAssertEqual(subject.record().values, Array(count - 10..<count))
    }
}

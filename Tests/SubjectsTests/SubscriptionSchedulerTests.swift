import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// Where RAC 2.5 goes through `+[RACScheduler subscriptionScheduler]`, so do the subjects: the
/// replay of a replay or behavior subject runs on a scheduler, after `subscribe` has returned.
final class SubscriptionSchedulerTests: LeakCheckedTestCase {
    private func subjects() -> [(String, Subject<Int, Never>)] {
        let replay = ReplaySubject<Int, Never>()
        for value in 1...3 { replay.sendNext(value) }
        return [("ReplaySubject", replay), ("BehaviorSubject", BehaviorSubject(value: 1))]
    }

    func testReplayFromAThreadWithNoScheduler_runsOnASchedulerAndCanBeDisposedFromItsFirstValue() {
        for context in ["plain thread", "global queue"] {
            for (name, subject) in subjects() {
                let received = Recorder<Int>()
                let onScheduler = Recorder<Bool>()
                let replayed = DispatchSemaphore(value: 0)
                let subscribe: @Sendable () -> Void = {
                    let box = Lock<Subscriber<Int, Never>?>(nil)
                    let subscriber = Subscriber<Int, Never>(next: { value in
                        received.record(value)
                        onScheduler.record(Scheduler.current != nil)
                        box.withLock { $0.take() }?.disposable.dispose()
                        replayed.signal()
                    })
                    box.withLock { $0 = subscriber }
                    subject.subscribe(subscriber)
                }
                if context == "plain thread" {
                    onAPlainThread(subscribe)
                } else {
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        subscribe()
                        done.signal()
                    }
                    XCTAssertTrue(done.waitForSignal(), "\(name), \(context)")
                }
                XCTAssertTrue(replayed.waitForSignal(), "\(name), \(context): the replay never came")
                subject.sendNext(9)
                XCTAssertEqual(received.values, [1], "\(name), \(context)")
                XCTAssertEqual(onScheduler.values, [true], "\(name), \(context)")
            }
        }
    }

    func testReplayWhereASchedulerIsCurrent_runsAtOnce() {
        for (name, subject) in subjects() {
            let scheduler = TestScheduler()
            let received = Recorder<Int>()
            scheduler.schedule {
                subject.subscribe(next: { received.record($0) })
                XCTAssertEqual(received.values.first, 1, "\(name): replayed before subscribe returned")
            }
            scheduler.run()
        }
    }
}

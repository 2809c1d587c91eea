import Disposables
import Foundation
import Schedulers
import Signals
@testable import Subjects
import TestSupport
import XCTest

/// The high-water mark of `input`, and the most it may reach with `senders` threads sending from
/// outside any delivery: `SerialInput.bound`, plus the value of each sender waiting at the bound.
private func highWater(of input: SerialInput<Int, Never>, senders: Int) -> (mark: Int, limit: Int) {
    (input.highWaterMark, SerialInput<Int, Never>.bound + senders)
}

/// Shape 6 of "disposal never waits", the bound on a subject's queue: while a producer thread
/// floods a `Subject` and the main thread subscribes and disposes 2,000 times, the most values
/// queued at once on the subject's input stays within `SerialInput.bound`, plus the value of each
/// sender waiting at the bound.
final class SubjectHighWaterMarkTests: LeakCheckedTestCase {
    /// Shape 6: a `Subject` flooded from a producer thread while the main thread subscribes and
    /// disposes 2,000 times: its input's high-water mark stays within `SerialInput.bound`, and no
    /// callback of the long-lived subscriber runs on the main thread.
    func testSubjectFlood_mainThreadSubscribesAndDisposes_queueStaysWithinTheBound() {
        let subject = Subject<Int, Never>()
        let shape = "a Subject flooded from a producer thread while the main thread subscribes and disposes: the queue's high-water mark"
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            shape, source: subject, send: { subject.sendNext($0) },
            afterFlood: {
                let (mark, limit) = highWater(of: subject.input, senders: 1)
                return mark > limit ? ["\(shape): the high-water mark \(mark) is beyond \(limit)"] : []
            }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: as the flood above, with sends from two producer threads at once besides the main
    /// thread's subscribe and dispose loop: the high-water mark stays within the bound.
    func testSubjectFloodFromTwoProducers_mainThreadSubscribesAndDisposes_queueStaysWithinTheBound() {
        let subject = Subject<Int, Never>()
        let shape = "a Subject flooded from two producer threads while the main thread subscribes and disposes: the queue's high-water mark"
        let stop = Flag()
        let second = startThread("second producer: floods") {
            var value = 0
            while !stop.isSet {
                subject.sendNext(-value)
                value &+= 1
            }
        }
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            shape, source: subject, send: { subject.sendNext($0) },
            afterFlood: {
                let (mark, limit) = highWater(of: subject.input, senders: 2)
                return mark > limit ? ["\(shape): the high-water mark \(mark) is beyond \(limit)"] : []
            }
        )
        stop.set()
        spinMainRunLoop(untilAllSet: second)
        for failure in failures { XCTFail(failure) }
    }

    /// Four threads each send into a pipe of their own whose callback forwards every value into
    /// one `Subject` with a slow subscriber: a send from inside a callback never waits, so before
    /// each sender paid for what it queued beyond the bound once its own send was over, the
    /// subject's queue grew with the number of values (48,639 of 80,000 queued at once). Now each
    /// thread adds at most one value beyond the bound before it waits, outside its delivery, as a
    /// plain sender at the bound does: the high-water mark stays within the bound plus two per
    /// sender (its value and the wait's marker), and every value arrives once, in each sender's
    /// order.
    func testFloodForwardedFromFourPipesCallbacks_queueStaysWithinTheBound() {
        let watchdog = Watchdog("four pipes' callbacks forwarding a flood into one subject")
        defer { watchdog.cancel() }
        let subject = Subject<Int, Never>()
        let senders = 4
        let perSender = 20_000
        let received = Lock([[Int]](repeating: [], count: senders))
        let subscription = subject.subscribe(next: { value in
            received.withLock { $0[value % senders].append(value / senders) }
            // A slow subscriber: the senders outpace it.
            for _ in 0..<20 { sched_yield() }
        })
        let pipes = (0..<senders).map { _ in Signal<Int, Never>.pipe() }
        let forwardings = pipes.map { pipe in pipe.0.subscribe(next: { subject.sendNext($0) }) }
        let finished = (0..<senders).map { sender in
            startThread("sender \(sender)") {
                for index in 0..<perSender { pipes[sender].1.sendNext(index * senders + sender) }
            }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue(timeout: 60) { finished.allSatisfy(\.isSet) }, "the senders did not finish")
        XCTAssertTrue(pollWithoutRunningTheMainQueue(timeout: 60) {
            received.withLock { $0.reduce(0) { $0 + $1.count } } == senders * perSender
        }, "not every value arrived")
        let (mark, limit) = highWater(of: subject.input, senders: 2 * senders)
        XCTAssertLessThanOrEqual(mark, limit, "the subject's high-water mark")
        for (sender, values) in received.withLock({ $0 }).enumerated() {
            XCTAssertEqual(values, Array(0..<perSender), "sender \(sender)'s values, once each, in order")
        }
        forwardings.forEach { $0.dispose() }
        subscription.dispose()
    }

    /// The same flood, sent by synchronous signals that the library subscribes from scheduled
    /// blocks of its own: `subscribe(on:)`'s, a retry's after its delay, `Signal.defer`'s on a
    /// background scheduler. There the thread is where any sender on a scheduler is, so what the
    /// forwarding callbacks queue beyond the bound is waited for, as a plain sender waits, not
    /// forgiven as inside a subscription the app makes: the high-water mark stays within the bound
    /// plus two per sender.
    func testFloodForwardedBySignalsSubscribedFromScheduledBlocks_queueStaysWithinTheBound() {
        let senders = 2
        // Without the wait, 15,000 to 18,000 of 20,000 were queued at once: 5,000 shows it, and
        // keeps the three floods through a slow subscriber short on a loaded machine.
        let perSender = 5_000
        @Sendable func flood(_ sender: Int) -> Signal<Int, TestError> {
            Signal { subscriber in
                for index in 0..<perSender { subscriber.sendNext(index * senders + sender) }
                subscriber.sendCompleted()
                return nil
            }
        }
        func failingOnce(_ sender: Int) -> Signal<Int, TestError> {
            let attempts = Lock(0)
            return Signal { subscriber in
                let attempt = attempts.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                if attempt == 0 { subscriber.sendError(.first) } else {
                    for index in 0..<perSender { subscriber.sendNext(index * senders + sender) }
                    subscriber.sendCompleted()
                }
                return nil
            }
        }
        let shapes: [(name: String, subscribe: (_ forward: @escaping @Sendable (Int) -> Void) -> [Flag])] = [
            ("subscribe(on:)", { forward in
                (0..<senders).map { sender in
                    let done = Flag()
                    _ = flood(sender).subscribe(on: QueueScheduler(name: "sender \(sender)"))
                        .subscribe(next: forward, completed: { done.set() })
                    return done
                }
            }),
            ("retry after a delay", { forward in
                (0..<senders).map { sender in
                    let done = Flag()
                    _ = failingOnce(sender).retry(1, delay: .constant(0.001), on: QueueScheduler(name: "sender \(sender)"))
                        .subscribe(next: forward, completed: { done.set() })
                    return done
                }
            }),
            // The background scheduler may run one block at a time: the other sender is a plain
            // thread, so that one of the two queues while the other delivers.
            ("Signal.defer on a background scheduler", { forward in
                let done = Flag()
                _ = startThread("subscribes sender 0 where no scheduler is current") {
                    _ = Signal.defer { flood(0) }.subscribe(next: forward, completed: { done.set() })
                }
                let plain = startThread("sender 1, plain") {
                    for index in 0..<perSender { forward(index * senders + 1) }
                }
                return [done, plain]
            }),
        ]
        for shape in shapes {
            let watchdog = Watchdog("\(shape.name): a synchronous signal subscribed from a scheduled block forwarding a flood into one subject")
            defer { watchdog.cancel() }
            let subject = Subject<Int, Never>()
            let received = Lock([[Int]](repeating: [], count: senders))
            let subscription = subject.subscribe(next: { value in
                received.withLock { $0[value % senders].append(value / senders) }
                // A slow subscriber: the senders outpace it.
                for _ in 0..<20 { sched_yield() }
            })
            let finished = shape.subscribe { subject.sendNext($0) }
            XCTAssertTrue(pollWithoutRunningTheMainQueue(timeout: 60) { finished.allSatisfy(\.isSet) }, "\(shape.name): the senders did not finish")
            XCTAssertTrue(pollWithoutRunningTheMainQueue(timeout: 60) {
                received.withLock { $0.reduce(0) { $0 + $1.count } } == senders * perSender
            }, "\(shape.name): not every value arrived")
            let (mark, limit) = highWater(of: subject.input, senders: 2 * senders)
            XCTAssertLessThanOrEqual(mark, limit, "\(shape.name): the subject's high-water mark")
            for (sender, values) in received.withLock({ $0 }).enumerated() {
                XCTAssertEqual(values, Array(0..<perSender), "\(shape.name): sender \(sender)'s values, once each, in order")
            }
            subscription.dispose()
        }
    }
}

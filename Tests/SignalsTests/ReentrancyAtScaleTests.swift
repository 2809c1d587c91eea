import Dispatch
import Disposables
import Foundation
import Signals
import Synchronization
import TestSupport
import XCTest

/// A subscriber that sends 100,000 values into its own source from inside one callback gets them
/// all, in order, then the completion it sends last, in time linear in their number, without a
/// stack frame per value: from the main thread, from a thread with a 512 KiB stack, from a global
/// queue, and while another thread sends to the same subscriber.
///
/// Linear time is shown by the watchdog (``ReentrantBurst``): a quadratic cost would take minutes.
final class SignalReentrancyAtScaleTests: LeakCheckedTestCase {
    /// One source: subscribes a subscriber that, given 0, sends `1...size` into the source from
    /// inside that callback, then completion; returns what sends the 0 and what checks the result.
    private static func createdSignal(_ name: String, through transform: @escaping (Signal<Int, Never>) -> Signal<Int, Never>) -> BurstSource {
        BurstSource(name: name) { size in
            let slot = SubscriberSlot<Int, Never>()
            let tally = BurstTally()
            let signal = Signal<Int, Never> { subscriber in
                slot.subscriber = subscriber
                return nil
            }
            transform(signal).subscribe(next: { value in
                tally.record(value)
                guard value == 0, let subscriber = slot.subscriber else { return }
                for next in 1...size { subscriber.sendNext(next) }
                subscriber.sendCompleted()
            }, completed: { tally.complete() })
            return ({ slot.subscriber?.sendNext(0) }, { tally.failures(name, expecting: Array(0...size)) })
        }
    }

    private static func pipe(_ name: String, through transform: @escaping (Signal<Int, Never>) -> Signal<Int, Never>) -> BurstSource {
        BurstSource(name: name) { size in
            let (signal, input) = Signal<Int, Never>.pipe()
            let sender = BurstTally()
            let other = BurstTally()
            transform(signal).subscribe(next: { value in
                sender.record(value)
                guard value == 0 else { return }
                for next in 1...size { input.sendNext(next) }
                input.sendCompleted()
            }, completed: { sender.complete() })
            signal.subscribe(next: { other.record($0) }, completed: { other.complete() })
            return ({ input.sendNext(0) }, {
                sender.failures("\(name), the sending subscriber", expecting: Array(0...size))
                    + other.failures("\(name), another subscriber", expecting: Array(0...size))
            })
        }
    }

    /// A `Subscriber` subscribed with `subscribe(_:)` through operators, sending into `target`:
    /// itself, or the pipe's input that feeds it.
    private static func subscriber(_ name: String, sendingIntoItself: Bool) -> BurstSource {
        BurstSource(name: name) { size in
            let (signal, input) = Signal<Int, Never>.pipe()
            let slot = SubscriberSlot<Int, Never>()
            let tally = BurstTally()
            let subscriber = Subscriber<Int, Never>(next: { value in
                tally.record(value)
                guard value == 0 else { return }
                let target = sendingIntoItself ? slot.subscriber : input
                for next in 1...size { target?.sendNext(next) }
                target?.sendCompleted()
            }, completed: { tally.complete() })
            if sendingIntoItself { slot.subscriber = subscriber }
            BurstSource.throughOperators(signal).subscribe(subscriber)
            return ({ input.sendNext(0) }, { tally.failures(name, expecting: Array(0...size)) })
        }
    }

    private static var sources: [BurstSource] { [
        createdSignal("a created signal", through: { $0 }),
        createdSignal("a created signal through map and filter", through: BurstSource.throughOperators),
        pipe("a pipe", through: { $0 }),
        pipe("a pipe through map and filter", through: BurstSource.throughOperators),
        subscriber("a Subscriber fed through map and filter, sending into itself", sendingIntoItself: true),
        subscriber("a Subscriber fed through map and filter, sending into its pipe", sendingIntoItself: false),
        pipe("a pipe through combineLatest", through: { Signal.combineLatest($0, Signal<Int, Never>.return(0)).map { $0.0 } }),
        pipe("a pipe through flattenMap", through: { $0.flattenMap { Signal<Int, Never>.return($0) } }),
    ] }

    func testReentrantBurst_fromTheMainThread_arrivesWholeAndInOrder() {
        runBursts(Self.sources, from: .main)
    }

    /// Reentrant sends are queued and delivered in a loop, never one frame per value: 100,000 of
    /// them fit on a stack that a few thousand nested deliveries would overflow.
    func testReentrantBurst_onA512KiBStack_neverRecursesPerValue() {
        runBursts(Self.sources, from: .smallStack)
    }

    func testReentrantBurst_fromAGlobalQueue_arrivesWholeAndInOrder() {
        runBursts(Self.sources, from: .globalQueue)
    }

    /// While a callback on a global queue sends 100,000 values into its own created signal,
    /// another thread, outside any delivery, sends 1,000 to the same subscriber: it waits for the
    /// delivery under way (the reentrant sends are delivered first), and the reentrant sends never
    /// wait for it.
    func testReentrantBurst_whileAnotherThreadSendsToTheSameSubscriber_noDeadlockAndBothInOrder() {
        let size = ReentrantBurst.size
        let others = 1_000
        withWatchdog(seconds: ReentrantBurst.watchdogSeconds, "a reentrant burst while another thread sends to the same subscriber") {
            let slot = SubscriberSlot<Int, Never>()
            let tally = BurstTally()
            let otherStarted = Flag()
            let otherFinished = Flag()
            let signal = Signal<Int, Never> { subscriber in
                slot.subscriber = subscriber
                return nil
            }
            signal.subscribe(next: { value in
                tally.record(value)
                guard value == 0, let subscriber = slot.subscriber else { return }
                startThread("another sender") {
                    otherStarted.set()
                    for next in 1...others { slot.subscriber?.sendNext(-next) }
                    otherFinished.set()
                }
                XCTAssertTrue(eventually { otherStarted.isSet })
                for next in 1...size { subscriber.sendNext(next) }
            }, completed: { tally.complete() })
            BurstThread.globalQueue.run { slot.subscriber?.sendNext(0) }
            XCTAssertTrue(eventually { otherFinished.isSet })
            slot.subscriber?.sendCompleted()
            // The other thread's sends wait for the delivery under way, which delivers the whole
            // burst before it leaves: so they all come after it.
            for failure in tally.failures("the subscriber", expecting: Array(0...size) + (1...others).map { -$0 }) {
                XCTFail(failure)
            }
        }
    }

    /// A callback of one pipe sends 100,000 values into a subscriber that another thread is
    /// delivering to (blocked in its callback), each followed by a value into a free pipe: each
    /// send to the busy one is put off until the sending thread leaves its delivery, in order
    /// behind the ones before, and each send to the free one is delivered at once, at a constant
    /// cost each however many sends are put off.
    func testSendsPutOffFromInsideACallback_aHundredThousandBetweenSendsToAFreeSubscriber_inOrderInLinearTime() {
        let size = ReentrantBurst.size
        withWatchdog(seconds: ReentrantBurst.watchdogSeconds, "100,000 sends put off from inside a callback for a busy subscriber, between sends to a free one") {
            let slot = SubscriberSlot<Int, Never>()
            let busy = BurstTally()
            let free = BurstTally()
            let ownerIsBlocked = Flag()
            let putOffSendsReturned = Flag()
            Signal<Int, Never> { subscriber in
                slot.subscriber = subscriber
                return nil
            }.subscribe(next: { value in
                busy.record(value)
                guard value == 0 else { return }
                ownerIsBlocked.set()
                // The other thread's sends return at once, put off: it waits for nothing here.
                XCTAssertTrue(eventually { putOffSendsReturned.isSet })
            }, completed: { busy.complete() })
            let (freeSignal, freeInput) = Signal<Int, Never>.pipe()
            freeSignal.subscribe(next: { free.record($0) }, completed: { free.complete() })
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            trigger.subscribe(next: {
                guard let subscriber = slot.subscriber else { return }
                for next in 1...size {
                    subscriber.sendNext(next)
                    freeInput.sendNext(next)
                }
                subscriber.sendCompleted()
                XCTAssertEqual(free.values.count, size, "the free subscriber's values were delivered at once")
                freeInput.sendCompleted()
                putOffSendsReturned.set()
            })
            let owner = startThread("the owner, blocked in a callback") { slot.subscriber?.sendNext(0) }
            XCTAssertTrue(eventually { ownerIsBlocked.isSet })
            BurstThread.globalQueue.run { triggerInput.sendNext(()) }
            spinMainRunLoop(untilAllSet: owner)
            for failure in busy.failures("the busy subscriber", expecting: Array(0...size))
                + free.failures("the free subscriber", expecting: Array(1...size)) {
                XCTFail(failure)
            }
        }
    }
}

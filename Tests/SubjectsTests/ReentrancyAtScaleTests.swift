import Dispatch
import Disposables
import Foundation
import Signals
@testable import Subjects
import Synchronization
import TestSupport
import XCTest

/// A subscriber that sends 100,000 values into its own subject from inside one callback (every
/// kind of subject, a channel's terminal, through operators or not) gets them all, in order, then
/// the completion it sends last, and so does every other subscriber, in time linear in their
/// number and without a stack frame per value; an `ObservableValue`, which coalesces, ends on the
/// last value. Reentrant sends never wait at the bound of a subject's queue, nor count against
/// it, also while another thread sends to the same subject.
///
/// Linear time is shown by the watchdog (``ReentrantBurst``): a quadratic cost would take minutes.
final class SubjectReentrancyAtScaleTests: LeakCheckedTestCase {
    /// One source: subscribes a subscriber that, given 0, sends `1...size` into the source from
    /// inside that callback (then completion, except into a cell); returns what sends the 0 and
    /// what checks the result (on the main thread).
    /// - Parameters:
    ///   - replayed: What a subscriber gets as it subscribes, before the burst.
    ///   - late: What a subscriber that comes after the burst gets before the completion.
    private static func subject(
        _ name: String,
        _ makeSubject: @escaping () -> Subject<Int, Never>,
        replayed: [Int] = [],
        late: @escaping (_ size: Int) -> [Int] = { _ in [] },
        through transform: @escaping (Signal<Int, Never>) -> Signal<Int, Never> = { $0 }
    ) -> BurstSource {
        BurstSource(name: name) { size in
            let subject = makeSubject()
            let sender = BurstTally()
            let other = BurstTally()
            transform(subject).subscribe(next: { value in
                sender.record(value)
                guard value == 0 else { return }
                for next in 1...size { subject.sendNext(next) }
                subject.sendCompleted()
            }, completed: { sender.complete() })
            subject.subscribe(next: { other.record($0) }, completed: { other.complete() })
            return ({ subject.sendNext(0) }, {
                let latecomer = BurstTally()
                subject.subscribe(next: { latecomer.record($0) }, completed: { latecomer.complete() })
                return sender.failures("the sending subscriber", expecting: replayed + Array(0...size))
                    + other.failures("another subscriber", expecting: replayed + Array(0...size))
                    + latecomer.failures("a subscriber after the end", expecting: late(size))
            })
        }
    }

    /// A subscriber of one terminal that sends into the other, which its own terminal's
    /// subscribers get.
    private static func channel(_ name: String, sendingIntoTheLeadingTerminal: Bool) -> BurstSource {
        BurstSource(name: name) { size in
            let channel = Channel<Int>()
            let (source, target) = sendingIntoTheLeadingTerminal
                ? (channel.followingTerminal, channel.leadingTerminal)
                : (channel.leadingTerminal, channel.followingTerminal)
            let sender = BurstTally()
            source.subscribe(next: { value in
                sender.record(value)
                guard value == 0 else { return }
                for next in 1...size { target.sendNext(next) }
                target.sendCompleted()
            }, error: { _ in sender.fail() }, completed: { sender.complete() })
            return ({ target.sendNext(0) }, { sender.failures("the sending subscriber", expecting: Array(0...size)) })
        }
    }

    /// A cell's subscriber that, given 0, writes `1...size` to the cell: the writes coalesce, and
    /// every subscriber and the cell itself end on the last.
    private static var cell: BurstSource { BurstSource(name: "an ObservableValue") { size in
        let cell = ObservableValue(-1)
        let writer = BurstTally()
        let channelSeen = BurstTally()
        // Weakly: the cell's subscribers must not keep it alive, or it never completes them.
        cell.signal.subscribe(next: { [weak cell] value in
            writer.record(value)
            guard value == 0, let cell else { return }
            for next in 1...size { cell.value = next }
        })
        cell.channel.subscribe(next: { channelSeen.record($0) })
        return ({ cell.value = 0 }, {
            var failures: [String] = []
            for (who, tally) in [("the writing subscriber", writer), ("the channel's subscriber", channelSeen)] {
                let values = tally.values
                if values.prefix(2) != [-1, 0] { failures.append("\(who): began with \(values.prefix(2)), expected [-1, 0]") }
                if values.last != size { failures.append("\(who): ended on \(values.last.map(String.init) ?? "nothing"), expected \(size)") }
                if zip(values, values.dropFirst()).contains(where: { $0 >= $1 }) { failures.append("\(who): values out of order") }
            }
            if cell.value != size { failures.append("the cell holds \(cell.value), expected \(size)") }
            return failures
        })
    } }

    private static var sources: [BurstSource] { [
        subject("a Subject", { Subject() }),
        subject("a Subject through map and filter", { Subject() }, through: BurstSource.throughOperators),
        subject("a ReplaySubject of capacity 0", { ReplaySubject(capacity: 0) }),
        subject("a ReplaySubject of capacity 1", { ReplaySubject(capacity: 1) }, late: { [$0] }),
        subject("an unbounded ReplaySubject", { ReplaySubject() }, late: { Array(0...$0) }),
        subject("an unbounded ReplaySubject through map and filter", { ReplaySubject() }, late: { Array(0...$0) }, through: BurstSource.throughOperators),
        subject("a BehaviorSubject", { BehaviorSubject(value: -1) }, replayed: [-1]),
        channel("a Channel, into its leading terminal", sendingIntoTheLeadingTerminal: true),
        channel("a Channel, into its following terminal", sendingIntoTheLeadingTerminal: false),
        cell,
    ] }

    func testReentrantBurst_fromTheMainThread_arrivesWholeAndInOrder() {
        runBursts(Self.sources, from: .main)
    }

    /// A subject's deliverer delivers reentrant sends in a loop, never one frame per value:
    /// 100,000 of them fit on a stack that a few thousand nested deliveries would overflow.
    func testReentrantBurst_onA512KiBStack_neverRecursesPerValue() {
        runBursts(Self.sources, from: .smallStack)
    }

    func testReentrantBurst_fromAGlobalQueue_arrivesWholeAndInOrder() {
        runBursts(Self.sources, from: .globalQueue)
    }

    /// A callback on a global queue, as the subject's deliverer, waits until another thread,
    /// sending from outside any delivery, has filled the queue to the bound and waits at it; then
    /// it sends 100,000 values into the subject. None of them waits (the watchdog would end a
    /// deadlock), none counts against the bound (the high-water mark stays at the bound plus the
    /// waiting sender's value), and the subscriber gets each thread's values in order.
    func testReentrantBurst_whileAnotherThreadWaitsAtTheBound_neverWaitsNorCounts() {
        let kinds: [(name: String, subject: Subject<Int, Never>, replayed: [Int])] = [
            ("Subject", Subject(), []),
            ("ReplaySubject of capacity 0", ReplaySubject(capacity: 0), []),
            ("ReplaySubject of capacity 1", ReplaySubject(capacity: 1), []),
            ("unbounded ReplaySubject", ReplaySubject(), []),
            ("BehaviorSubject", BehaviorSubject(value: -1), [-1]),
        ]
        let size = ReentrantBurst.size
        let others = 1_000
        let bound = SerialInput<Int, Never>.bound
        for (name, subject, replayed) in kinds {
            withWatchdog(seconds: ReentrantBurst.watchdogSeconds, "a reentrant burst into a \(name) while another thread waits at the bound") {
                let tally = BurstTally()
                let otherFinished = Flag()
                subject.subscribe(next: { value in
                    tally.record(value)
                    guard value == 0 else { return }
                    startThread("another sender") {
                        for next in size + 1...size + others { subject.sendNext(next) }
                        otherFinished.set()
                    }
                    // The other thread queues `bound` values, then waits with one more.
                    XCTAssertTrue(eventually { subject.input.highWaterMark > bound }, name)
                    for next in 1...size { subject.sendNext(next) }
                }, completed: { tally.complete() })
                BurstThread.globalQueue.run { subject.sendNext(0) }
                XCTAssertTrue(eventually { otherFinished.isSet }, name)
                subject.sendCompleted()
                XCTAssertEqual(subject.input.highWaterMark, bound + 1, "\(name): the reentrant sends counted against the bound")
                let values = tally.values
                XCTAssertEqual(values.filter { $0 < 0 }, replayed, name)
                XCTAssertNil(firstDifference(values.filter { (0...size).contains($0) }, Array(0...size)), "\(name): the burst")
                XCTAssertNil(firstDifference(values.filter { $0 > size }, Array(size + 1...size + others)), "\(name): the other thread's values")
                XCTAssertEqual(tally.completions, 1, name)
            }
        }
    }

    /// A source that replays to a new subscriber, for the replay tests: `complete` is `nil` for a
    /// cell, which never completes (and coalesces its values).
    private struct Replaying {
        let name: String
        let send: @Sendable (Int) -> Void
        let complete: (@Sendable () -> Void)?
        let subscribe: (_ next: @escaping @Sendable (Int) -> Void, _ completed: @escaping @Sendable () -> Void) -> Void
        /// Holds what the closures reach weakly.
        let keepAlive: AnyObject?

        static func subject(_ name: String, _ subject: Subject<Int, Never>) -> Replaying {
            Replaying(
                name: name,
                send: { subject.sendNext($0) },
                complete: { subject.sendCompleted() },
                subscribe: { next, completed in subject.subscribe(next: next, completed: completed) },
                keepAlive: nil
            )
        }

        static func cell() -> Replaying {
            let cell = ObservableValue(-1)
            // Weakly: the cell's subscribers must not keep it alive, or it never completes them.
            return Replaying(
                name: "ObservableValue",
                send: { [weak cell] in cell?.value = $0 },
                complete: nil,
                subscribe: { next, _ in cell.signal.subscribe(next: next) },
                keepAlive: cell
            )
        }
    }

    /// While another thread delivers a value (blocked in a callback until the subscription below
    /// has finished replaying), a new subscriber, replayed that value, sends 100,000 values into
    /// the source from its replay callback: none of them waits at the bound for the blocked
    /// deliverer (a replay is a delivery of the source's values), so there is no deadlock, and
    /// every value arrives, in order, once the deliverer goes on.
    func testReplayCallback_sendingIntoItsSourceWhileAnotherThreadDelivers_neverWaitsAtTheBound() {
        let size = ReentrantBurst.size
        let kinds: [Replaying] = [
            .subject("ReplaySubject of capacity 1", ReplaySubject(capacity: 1)),
            .subject("unbounded ReplaySubject", ReplaySubject()),
            .subject("BehaviorSubject", BehaviorSubject(value: -1)),
            .cell(),
        ]
        for kind in kinds {
            withWatchdog(seconds: ReentrantBurst.watchdogSeconds, "a replay callback sending into its \(kind.name) while another thread delivers") {
                let replayFinished = Flag()
                let delivererBlocked = Flag()
                let delivererWaitedInVain = Flag()
                kind.subscribe({ value in
                    guard value == 0 else { return }
                    delivererBlocked.set()
                    if !pollWithoutRunningTheMainQueue({ replayFinished.isSet }) { delivererWaitedInVain.set() }
                }, {})
                let send = kind.send
                let complete = kind.complete
                let deliverer = startThread("the deliverer, blocked in a callback") { send(0) }
                XCTAssertTrue(eventually { delivererBlocked.isSet }, kind.name)
                let tally = BurstTally()
                kind.subscribe({ value in
                    tally.record(value)
                    guard value == 0 else { return }
                    for next in 1...size { send(next) }
                    complete?()
                }, { tally.complete() })
                replayFinished.set()
                spinMainRunLoop(untilAllSet: deliverer)
                XCTAssertFalse(delivererWaitedInVain.isSet, "\(kind.name): the replay's sends waited for the deliverer")
                if kind.complete == nil {
                    XCTAssertTrue(eventually { tally.values.last == size }, kind.name)
                    let values = tally.values
                    XCTAssertEqual(values.first, 0, kind.name)
                    XCTAssertFalse(zip(values, values.dropFirst()).contains { $0 >= $1 }, "\(kind.name): values out of order")
                } else {
                    for failure in tally.failures(kind.name, expecting: Array(0...size)) { XCTFail(failure) }
                }
            }
        }
    }

    /// While another thread delivers to a subscriber (blocked in its callback until the send
    /// below has returned), a replay callback sends to that subscriber: the send is put off, as a
    /// send from any callback is, instead of waiting for the blocked thread, and done once the
    /// replay has ended, before `subscribe` returns.
    func testReplayCallback_sendingToASubscriberAnotherThreadDelivers_doesNotWaitForIt() {
        withWatchdog(seconds: ReentrantBurst.watchdogSeconds, "a replay callback sending to a subscriber another thread delivers") {
            let slot = SubscriberSlot<Int, Never>()
            let sendReturned = Flag()
            let ownerBlocked = Flag()
            let ownerWaitedInVain = Flag()
            let received = BurstTally()
            Signal<Int, Never> { subscriber in
                slot.subscriber = subscriber
                return nil
            }.subscribe(next: { value in
                received.record(value)
                guard value == 0 else { return }
                ownerBlocked.set()
                if !pollWithoutRunningTheMainQueue({ sendReturned.isSet }) { ownerWaitedInVain.set() }
            }, completed: { received.complete() })
            let owner = startThread("the owner, blocked in a callback") { slot.subscriber?.sendNext(0) }
            XCTAssertTrue(eventually { ownerBlocked.isSet })
            let subject = ReplaySubject<Int, Never>(capacity: 1)
            subject.sendNext(1)
            subject.subscribe(next: { value in
                slot.subscriber?.sendNext(value)
                slot.subscriber?.sendCompleted()
                sendReturned.set()
            })
            XCTAssertEqual(received.values, [0, 1], "the send put off was done before subscribe returned")
            spinMainRunLoop(untilAllSet: owner)
            XCTAssertFalse(ownerWaitedInVain.isSet, "the replay's send waited for the thread delivering to the subscriber")
            for failure in received.failures("the subscriber", expecting: [0, 1]) { XCTFail(failure) }
        }
    }
}

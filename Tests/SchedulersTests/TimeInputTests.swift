import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

private actor Idle {}

/// A scheduler of a user's that overrides only what it must: the default
/// `schedule(afterDelay:_:)` applies the rule too.
private final class PlainScheduler: Scheduler, @unchecked Sendable {
    init() {
        super.init(name: "plain")
    }

    override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }

    override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }
}

private let nanDate = Date(timeIntervalSinceReferenceDate: .nan)
private let infiniteDate = Date(timeIntervalSinceReferenceDate: .infinity)

/// The one rule for the times every scheduler is given: NaN stops the program with a message
/// naming the method and the value; a date or delay that never comes never runs its block, which
/// waits until disposed; a date past is due now, first in, first out.
final class TimeInputTests: LeakCheckedTestCase {
    // MARK: NaN stops the program

    /// The cases of one scheduler: each must stop with its message.
    private func assertStops(_ cases: [(name: String, message: String, body: () -> Void)], function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        for stop in cases {
            if let failure = expectStop(stop.name, in: self, messageContains: stop.message, function: function, stop.body) {
                XCTFail(failure, file: file, line: line)
            }
        }
    }

    func testQueueScheduler_NaNTimesStop() {
        let scheduler = QueueScheduler(name: "NaN")
        let method = "QueueScheduler.schedule(after:repeatingEvery:leeway:_:)"
        assertStops([
            ("date", "QueueScheduler.schedule(after:_:) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: nan)", {
                scheduler.schedule(after: nanDate) {}
            }),
            ("delay", "QueueScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                scheduler.schedule(afterDelay: .nan) {}
            }),
            ("repeating date", "\(method) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: nan)", {
                scheduler.schedule(after: nanDate, repeatingEvery: 1) {}
            }),
            ("interval", "\(method) needs a positive interval, got nan", {
                scheduler.schedule(after: Date(), repeatingEvery: .nan) {}
            }),
            ("leeway", "\(method) needs a leeway of zero or more, got nan", {
                scheduler.schedule(after: Date(), repeatingEvery: 1, leeway: .nan) {}
            }),
            ("zero interval", "\(method) needs a positive interval, got 0.0", {
                scheduler.schedule(after: Date(), repeatingEvery: 0) {}
            }),
            ("negative leeway", "\(method) needs a leeway of zero or more, got -1.0", {
                scheduler.schedule(after: Date(), repeatingEvery: 1, leeway: -1) {}
            }),
            ("main", "QueueScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                Scheduler.main.schedule(afterDelay: .nan) {}
            }),
            ("background", "QueueScheduler.schedule(after:_:) needs a date that is a number", {
                Scheduler.background().schedule(after: nanDate) {}
            }),
        ])
    }

    func testActorScheduler_NaNTimesStop() {
        let scheduler = ActorScheduler(Idle())
        let method = "ActorScheduler.schedule(after:repeatingEvery:leeway:_:)"
        assertStops([
            ("date", "ActorScheduler.schedule(after:_:) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: nan)", {
                scheduler.schedule(after: nanDate) {}
            }),
            ("delay", "ActorScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                scheduler.schedule(afterDelay: .nan) {}
            }),
            ("repeating date", "\(method) needs a date that is a number", {
                scheduler.schedule(after: nanDate, repeatingEvery: 1) {}
            }),
            ("interval", "\(method) needs a positive interval, got nan", {
                scheduler.schedule(after: Date(), repeatingEvery: .nan) {}
            }),
            ("leeway", "\(method) needs a leeway of zero or more, got nan", {
                scheduler.schedule(after: Date(), repeatingEvery: 1, leeway: .nan) {}
            }),
        ])
    }

    func testTestScheduler_NaNTimesStop() {
        let method = "TestScheduler.schedule(after:repeatingEvery:leeway:_:)"
        assertStops([
            // Before, the heap's order broke at the NaN: 0.5, 1, 4, 5, 2, 3, 6, NaN.
            ("a NaN among dates", "TestScheduler.schedule(after:_:) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: nan)", {
                let scheduler = TestScheduler()
                for date in [5, .nan, 1, 3, 2, 4, 0.5, 6] as [TimeInterval] {
                    scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: date)) {}
                }
                scheduler.advance(by: 10)
            }),
            ("delay", "TestScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                TestScheduler().schedule(afterDelay: .nan) {}
            }),
            ("repeating date", "\(method) needs a date that is a number", {
                TestScheduler().schedule(after: nanDate, repeatingEvery: 1) {}
            }),
            ("interval", "\(method) needs a positive interval, got nan", {
                TestScheduler().schedule(after: Date(), repeatingEvery: .nan) {}
            }),
            ("leeway", "\(method) needs a leeway of zero or more, got nan", {
                TestScheduler().schedule(after: Date(), repeatingEvery: 1, leeway: .nan) {}
            }),
            ("advance by NaN", "TestScheduler.advance(by:) needs a finite interval of zero or more, got nan", {
                TestScheduler().advance(by: .nan)
            }),
            ("advance by infinity", "TestScheduler.advance(by:) needs a finite interval of zero or more, got inf", {
                TestScheduler().advance(by: .infinity)
            }),
            ("advance back", "TestScheduler.advance(by:) needs a finite interval of zero or more, got -1.0", {
                TestScheduler().advance(by: -1)
            }),
            ("advance by past the largest date", "TestScheduler.advance(by:) needs an interval that keeps the clock finite, got 1e+308 with the clock at 1e+308", {
                let scheduler = TestScheduler()
                scheduler.advance(by: 1e308)
                scheduler.advance(by: 1e308)
            }),
            ("advance to NaN", "TestScheduler.advance(to:) needs a finite date, got Date(timeIntervalSinceReferenceDate: nan)", {
                TestScheduler().advance(to: nanDate)
            }),
            ("advance to infinity", "TestScheduler.advance(to:) needs a finite date, got Date(timeIntervalSinceReferenceDate: inf)", {
                TestScheduler().advance(to: infiniteDate)
            }),
            ("step a negative count", "TestScheduler.step(_:) needs a count of zero or more, got -1", {
                TestScheduler().step(-1)
            }),
        ])
    }

    func testImmediateSubscriptionAndPlainSchedulers_NaNTimesStop() {
        assertStops([
            ("immediate date", "Scheduler.immediate.schedule(after:_:) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: nan)", {
                Scheduler.immediate.schedule(after: nanDate) {}
            }),
            ("immediate delay", "Scheduler.immediate.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                Scheduler.immediate.schedule(afterDelay: .nan) {}
            }),
            ("immediate repeating", "immediate does not support repeating schedules", {
                Scheduler.immediate.schedule(after: Date(), repeatingEvery: 1) {}
            }),
            // On the main thread, the subscription scheduler forwards to the main queue's.
            ("subscription delay", "QueueScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                Scheduler.subscription.schedule(afterDelay: .nan) {}
            }),
            ("a scheduler of a user's", "PlainScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", {
                PlainScheduler().schedule(afterDelay: .nan) {}
            }),
        ])
    }

    // MARK: A date or delay that never comes

    func testQueueScheduler_datesAndDelaysThatNeverComeWaitUntilDisposed() {
        assertNeverComes { QueueScheduler(name: "never") }
    }

    func testActorScheduler_datesAndDelaysThatNeverComeWaitUntilDisposed() {
        assertNeverComes { ActorScheduler(Idle()) }
    }

    func testImmediate_datesAndDelaysThatNeverComeReturnAtOnceWithoutRunning() {
        let runs = Counter()
        for schedule in [
            { Scheduler.immediate.schedule(afterDelay: .infinity, $0) },
            { Scheduler.immediate.schedule(afterDelay: 1e300, $0) },
            { Scheduler.immediate.schedule(after: infiniteDate, $0) },
            { Scheduler.immediate.schedule(after: .distantFuture, $0) },
        ] as [(@escaping @Sendable () -> Void) -> Disposable?] {
            let (disposable, token) = trackingLifetime { token in
                schedule { _ = token; runs.increment() }
            }
            XCTAssertNotNil(disposable, "the block waits, held by the disposable")
            XCTAssertTrue(token.isAlive)
            disposable?.dispose()
            XCTAssertFalse(token.isAlive, "disposal lets go of the block")
        }
        XCTAssertEqual(runs.value, 0)
    }

    func testTestScheduler_aDateAtInfinityNeverComes() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let (disposables, token) = trackingLifetime { token in
            [
                scheduler.schedule(afterDelay: .infinity) { _ = token; runs.increment() },
                scheduler.schedule(after: infiniteDate) { _ = token; runs.increment() },
                scheduler.schedule(after: infiniteDate, repeatingEvery: 1) { _ = token; runs.increment() },
            ]
        }
        let finite = Recorder<TimeInterval>()
        scheduler.schedule(afterDelay: 1e12) { finite.record(scheduler.now.timeIntervalSinceReferenceDate) }
        scheduler.run()
        XCTAssertEqual(finite.values, [1e12], "a finite date comes, however far")
        scheduler.advance(by: 1e300)
        XCTAssertFalse(scheduler.step(), "nothing that can run waits")
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 1e300, "the clock stays finite")
        XCTAssertFalse(scheduler.isEmpty, "the blocks wait until disposed")
        XCTAssertTrue(token.isAlive)
        disposables.forEach { $0?.dispose() }
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertFalse(token.isAlive)
    }

    func testTestScheduler_anInfiniteIntervalRunsOnce() {
        let scheduler = TestScheduler()
        let times = Recorder<TimeInterval>()
        let repeating = scheduler.schedule(after: scheduler.now.addingTimeInterval(1), repeatingEvery: .infinity) {
            times.record(scheduler.now.timeIntervalSinceReferenceDate)
        }
        scheduler.run()
        XCTAssertEqual(times.values, [1])
        XCTAssertFalse(scheduler.isEmpty, "its next run never comes, until disposed")
        repeating?.dispose()
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testQueueScheduler_aRepeatingIntervalTooSmallToMoveTheClockLetsOtherBlocksRun() {
        assertTinyIntervalLetsOtherBlocksRun(QueueScheduler(name: "tiny-interval"))
    }

    func testActorScheduler_aRepeatingIntervalTooSmallToMoveTheClockLetsOtherBlocksRun() {
        assertTinyIntervalLetsOtherBlocksRun(ActorScheduler(Idle()))
    }

    /// A positive interval too small to change the monotonic clock's reading (1e-15 s) repeats as
    /// often as timers fire, but hands the scheduler back between runs: a block scheduled after it
    /// runs.
    private func assertTinyIntervalLetsOtherBlocksRun(_ scheduler: Scheduler, file: StaticString = #filePath, line: UInt = #line) {
        let runs = Counter()
        let repeating = scheduler.schedule(after: Date(), repeatingEvery: 1e-15) { runs.increment() }
        let ran = DispatchSemaphore(value: 0)
        scheduler.schedule { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the repeating block kept the scheduler", file: file, line: line)
        repeating?.dispose()
        XCTAssertGreaterThan(runs.value, 0, file: file, line: line)
    }

    /// Blocks for dates and delays that never come, once and repeating, do not run, hold no timer
    /// that traps, keep the scheduler while they wait, and are let go of, with the scheduler, once
    /// disposed.
    private func assertNeverComes(file: StaticString = #filePath, line: UInt = #line, _ make: () -> Scheduler) {
        var scheduler: Scheduler? = make()
        let watched = WeakReference(scheduler!)
        let runs = Counter()
        let (disposables, token) = trackingLifetime { token in
            [
                scheduler!.schedule(afterDelay: .infinity) { _ = token; runs.increment() },
                scheduler!.schedule(afterDelay: QueueScheduler.longestInterval) { _ = token; runs.increment() },
                scheduler!.schedule(after: infiniteDate) { _ = token; runs.increment() },
                scheduler!.schedule(after: .distantFuture) { _ = token; runs.increment() },
                scheduler!.schedule(after: infiniteDate, repeatingEvery: 1) { _ = token; runs.increment() },
                scheduler!.schedule(after: .distantFuture, repeatingEvery: .infinity) { _ = token; runs.increment() },
            ]
        }
        // Blocks that do come still run, before and after those that never do.
        let ran = DispatchSemaphore(value: 0)
        scheduler!.schedule(afterDelay: 0.01) { ran.signal() }
        scheduler!.schedule(afterDelay: -.infinity) { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, file: file, line: line)
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, file: file, line: line)
        scheduler = nil
        XCTAssertEqual(runs.value, 0, file: file, line: line)
        XCTAssertTrue(watched.isAlive, "the blocks waiting keep the scheduler", file: file, line: line)
        XCTAssertTrue(token.isAlive, file: file, line: line)
        disposables.forEach { $0?.dispose() }
        XCTAssertFalse(token.isAlive, "disposal lets go of the blocks", file: file, line: line)
        XCTAssertTrue(eventually { !watched.isAlive }, "nothing waits: the scheduler is let go of", file: file, line: line)
    }

    // MARK: A date past is due now, first in, first out

    func testTestScheduler_aDatePastIsDueNowAfterTheBlocksAlreadyDue() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 10)
        let log = Recorder<String>()
        let record: (String) -> @Sendable () -> Void = { name in
            { log.record("\(name) at \(scheduler.now.timeIntervalSinceReferenceDate)") }
        }
        scheduler.schedule(record("now"))
        scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: 3), record("3"))
        scheduler.schedule(afterDelay: -5, record("-5 s"))
        scheduler.schedule(after: .distantPast, record("distant past"))
        scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: -.infinity), record("minus infinity"))
        scheduler.schedule(afterDelay: 0, record("no delay"))
        scheduler.schedule(afterDelay: 1, record("1 s"))
        scheduler.run()
        XCTAssertEqual(log.values, ["now", "3", "-5 s", "distant past", "minus infinity", "no delay"].map { "\($0) at 10.0" } + ["1 s at 11.0"])
    }

    func testTestScheduler_aDatePastScheduledWhileAdvancingIsDueAtThatMoment() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule(afterDelay: 2) {
            log.record("2")
            scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: 1)) {
                log.record("past, at \(scheduler.now.timeIntervalSinceReferenceDate)")
            }
        }
        scheduler.schedule(afterDelay: 2) { log.record("2 again") }
        scheduler.schedule(afterDelay: 3) { log.record("3") }
        scheduler.advance(by: 5)
        XCTAssertEqual(log.values, ["2", "2 again", "past, at 2.0", "3"])
    }

    func testTestScheduler_manyDatesRunInDateOrderAndTiesInTheOrderScheduled() {
        let scheduler = TestScheduler()
        let ran = Recorder<TimeInterval>()
        // The dates of the report, without its NaN.
        for date in [5, 1, 3, 2, 4, 0.5, 6] as [TimeInterval] {
            scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: date)) { ran.record(date) }
        }
        scheduler.advance(by: 10)
        XCTAssertEqual(ran.values, [0.5, 1, 2, 3, 4, 5, 6])

        // 2,000 blocks for 50 dates, some past, in a scrambled order.
        let later = TestScheduler(startDate: Date(timeIntervalSinceReferenceDate: 10))
        let order = Recorder<(due: TimeInterval, index: Int)>()
        var generator = SplitMix64(seed: 15)
        var expected: [(due: TimeInterval, index: Int)] = []
        for index in 0..<2_000 {
            let date = Double(generator.next() % 50) * 0.5
            let due = max(date, 10)
            expected.append((due, index))
            later.schedule(after: Date(timeIntervalSinceReferenceDate: date)) {
                order.record((later.now.timeIntervalSinceReferenceDate, index))
            }
        }
        later.advance(by: 100)
        expected.sort { ($0.due, $0.index) < ($1.due, $1.index) }
        XCTAssertEqual(order.values.map(\.due), expected.map(\.due))
        XCTAssertEqual(order.values.map(\.index), expected.map(\.index))
    }
}

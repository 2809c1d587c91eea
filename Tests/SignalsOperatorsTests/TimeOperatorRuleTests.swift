import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

private actor Idle {}

/// The one rule of the time operators, as of the schedulers: a NaN interval, delay, timeout or
/// leeway stops the program with a message naming the operator and the value; and the waits are
/// measured on the scheduler's monotonic clock, so a wall clock set back (an NTP correction, a user
/// changing the time) lets no value through early. The infinite intervals are in each operator's
/// tests.
final class TimeOperatorRuleTests: LeakCheckedTestCase {
    // MARK: NaN and other bad times stop the program

    /// Each case must stop with its message.
    private func assertStops(_ cases: [(name: String, message: String, body: () -> Void)], function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        for stop in cases {
            if let failure = expectStop(stop.name, in: self, messageContains: stop.message, function: function, stop.body) {
                XCTFail(failure, file: file, line: line)
            }
        }
    }

    private var source: Signal<Int, TestError> { Signal.never }

    func testDelay_aNaNOrNegativeIntervalStops() {
        assertStops([
            ("on a scheduler, NaN", "delay(_:on:) needs an interval of zero or more, got nan", { _ = self.source.delay(.nan, on: TestScheduler()) }),
            ("on a scheduler, negative", "delay(_:on:) needs an interval of zero or more, got -1.0", { _ = self.source.delay(-1, on: TestScheduler()) }),
            ("on the current scheduler, NaN", "delay(_:) needs an interval of zero or more, got nan", { _ = self.source.delay(.nan) }),
        ])
    }

    func testThrottle_aNaNOrNegativeIntervalStops() {
        assertStops([
            ("on a scheduler", "throttle(_:on:valuesPassing:) needs an interval of zero or more, got nan", { _ = self.source.throttle(.nan, on: TestScheduler()) }),
            ("on a scheduler, with a predicate", "throttle(_:on:valuesPassing:) needs an interval of zero or more, got -0.5", {
                _ = self.source.throttle(-0.5, on: TestScheduler(), valuesPassing: { _ in true })
            }),
            ("on the current scheduler", "throttle(_:valuesPassing:) needs an interval of zero or more, got nan", { _ = self.source.throttle(.nan) }),
            ("on the current scheduler, with a predicate", "throttle(_:valuesPassing:) needs an interval of zero or more, got nan", {
                _ = self.source.throttle(.nan, valuesPassing: { _ in false })
            }),
        ])
    }

    func testRateLimit_aNaNOrNegativeIntervalStops() {
        assertStops([
            ("NaN", "rateLimit(_:on:latest:) needs an interval of zero or more, got nan", { _ = self.source.rateLimit(.nan, on: TestScheduler()) }),
            ("negative", "rateLimit(_:on:latest:) needs an interval of zero or more, got -1.0", { _ = self.source.rateLimit(-1, on: TestScheduler(), latest: false) }),
        ])
    }

    func testTimeout_aNaNOrNegativeIntervalStops() {
        let failing = Signal<Int, SignalError>.never
        assertStops([
            ("NaN", "timeout(_:on:) needs an interval of zero or more, got nan", { _ = self.source.timeout(.nan, on: TestScheduler(), raising: .first) }),
            ("negative", "timeout(_:on:) needs an interval of zero or more, got -1.0", { _ = failing.timeout(-1, on: TestScheduler()) }),
        ])
    }

    func testInterval_aNaNIntervalOrLeewayStops() {
        let method = "Signal.interval(_:on:leeway:)"
        assertStops([
            ("NaN interval", "\(method) needs a positive interval, got nan", { _ = Signal.interval(.nan, on: TestScheduler()) }),
            ("zero interval", "\(method) needs a positive interval, got 0.0", { _ = Signal.interval(0, on: TestScheduler()) }),
            ("NaN leeway", "\(method) needs a leeway of zero or more, got nan", { _ = Signal.interval(1, on: TestScheduler(), leeway: .nan) }),
            ("immediate", "\(method) cannot run on Scheduler.immediate", { _ = Signal.interval(1, on: .immediate) }),
        ])
    }

    func testThrottle_onImmediateStops() {
        // Immediate could only wait by blocking the sender: no newer value could come meanwhile,
        // and every value would pass, a throttle that throttles nothing.
        assertStops([
            ("immediate", "throttle(_:on:valuesPassing:) cannot run on Scheduler.immediate", { _ = self.source.throttle(0.3, on: .immediate) }),
            ("immediate, with a predicate", "throttle(_:on:valuesPassing:) cannot run on Scheduler.immediate", {
                _ = self.source.throttle(0.3, on: .immediate, valuesPassing: { _ in true })
            }),
        ])
    }

    func testRateLimit_onImmediateStops() {
        // Immediate could only end a window by blocking the sender, so no value could come during
        // it: a rate limiter that limits nothing.
        assertStops([
            ("immediate", "rateLimit(_:on:latest:) cannot run on Scheduler.immediate", { _ = self.source.rateLimit(0.3, on: .immediate) }),
        ])
    }

    func testBuffer_onImmediateStops() {
        assertStops([
            ("immediate", "buffer(_:on:) cannot run on Scheduler.immediate", { _ = self.source.buffer(1, on: .immediate) }),
        ])
    }

    func testAsynchronousForms_aNaNOrNegativeTimeoutStops() {
        assertStops([
            ("first, NaN", "asynchronousFirstResult(timeout:) needs a timeout of zero or more, got nan", { _ = self.source.asynchronousFirst(default: 0, timeout: .nan) }),
            ("first result, negative", "asynchronousFirstResult(timeout:) needs a timeout of zero or more, got -1.0", { _ = self.source.asynchronousFirstResult(timeout: -1) }),
            ("wait, NaN", "asynchronouslyWaitUntilCompleted(timeout:) needs a timeout of zero or more, got nan", { _ = self.source.asynchronouslyWaitUntilCompleted(timeout: .nan) }),
        ])
    }

    func testMarbles_aFrameThatIsNotAPositiveNumberStops() {
        let function = "TestScheduler.createColdSignal(_:values:error:frame:)"
        assertStops([
            ("cold, NaN", "\(function): the frame must be a positive number of seconds, got nan", {
                _ = TestScheduler().createColdSignal("a|", values: ["a": 1], error: TestError.first, frame: .nan)
            }),
            ("recording, infinite", "the frame must be a positive number of seconds, got inf", {
                let scheduler = TestScheduler()
                _ = scheduler.record(Signal<Int, Never>.empty).marbles(frame: .infinity) { _ in "a" }
            }),
        ])
    }

    // MARK: The waits are measured on the monotonic clock

    func testThrottle_onAQueueSchedulerWaitsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = prime(QueueScheduler(name: "throttle stepped back", clock: clock))
        let (signal, input) = Signal<Int, TestError>.pipe()
        let sentAt = Recorder<(value: Int, time: TimeInterval)>()
        let arrived = Recorder<(value: Int, time: TimeInterval)>()
        let subscription = signal.throttle(0.5, on: scheduler).subscribe(next: { arrived.record(($0, monotonicSeconds())) })
        clock.step(by: -5)
        for value in 1...3 {
            sentAt.record((value, monotonicSeconds()))
            input.sendNext(value)
        }
        XCTAssertTrue(eventually { arrived.values.last?.value == 3 })
        subscription.dispose()
        let sent = Dictionary(uniqueKeysWithValues: sentAt.values.map { ($0.value, $0.time) })
        for (value, time) in arrived.values {
            XCTAssertGreaterThanOrEqual(time - sent[value]!, 0.5, "\(value) came through before its 0.5 s without a newer value")
        }
    }

    func testDelay_onAnActorSchedulerWaitsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        assertDelayWaits(on: prime(ActorScheduler(Idle(), clock: clock)), stepping: clock, by: -0.2)
    }

    func testDelay_onAQueueSchedulerWaitsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        assertDelayWaits(on: prime(QueueScheduler(name: "delay stepped back", clock: clock)), stepping: clock, by: -5)
    }

    func testTimeout_onAQueueSchedulerWaitsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = prime(QueueScheduler(name: "timeout stepped back", clock: clock))
        clock.step(by: -5)
        let start = monotonicSeconds()
        let failedAt = Recorder<TimeInterval>()
        let subscription = source.timeout(0.2, on: scheduler, raising: .first).subscribe(error: { _ in failedAt.record(monotonicSeconds()) })
        XCTAssertTrue(eventually { !failedAt.values.isEmpty })
        subscription.dispose()
        XCTAssertGreaterThanOrEqual(failedAt.values[0] - start, 0.2, "timed out early")
    }

    func testBuffer_onAQueueSchedulerWaitsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = prime(QueueScheduler(name: "buffer stepped back", clock: clock))
        let (signal, input) = Signal<Int, Never>.pipe()
        let windows = Recorder<(values: [Int], time: TimeInterval)>()
        let subscription = signal.buffer(0.2, on: scheduler).subscribe(next: { windows.record(($0, monotonicSeconds())) })
        clock.step(by: -5)
        let start = monotonicSeconds()
        input.sendNext(1)
        XCTAssertTrue(eventually { !windows.values.isEmpty })
        subscription.dispose()
        XCTAssertEqual(windows.values.first?.values, [1])
        XCTAssertGreaterThanOrEqual((windows.values.first?.time ?? start) - start, 0.2, "the window closed early")
    }

    func testInterval_onAQueueSchedulerKeepsItsIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = prime(QueueScheduler(name: "interval stepped back", clock: clock))
        clock.step(by: -5)
        let start = monotonicSeconds()
        let ticks = Recorder<TimeInterval>()
        let subscription = Signal.interval(0.05, on: scheduler).subscribe(next: { _ in ticks.record(monotonicSeconds()) })
        XCTAssertTrue(eventually { ticks.values.count >= 3 })
        subscription.dispose()
        // The first tick's date becomes a deadline from a reading of both clocks, a few
        // microseconds apart: a millisecond's allowance.
        XCTAssertGreaterThanOrEqual(ticks.values[2] - start, 3 * 0.05 - 0.001, "ticks came early")
    }

    /// `scheduler`, once it has run a dated block, and so read its clocks, before the test steps
    /// the wall clock.
    private func prime<S: Scheduler>(_ scheduler: S) -> S {
        let ran = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0) { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
        return scheduler
    }

    /// `delay(0.1, on:)` sends a value, and completion, no sooner than 0.1 s after the source,
    /// though the wall clock stepped by `step` before.
    private func assertDelayWaits(on scheduler: Scheduler, stepping clock: SteppingClock, by step: TimeInterval, file: StaticString = #filePath, line: UInt = #line) {
        let (signal, input) = Signal<Int, Never>.pipe()
        let events = Recorder<(event: String, time: TimeInterval)>()
        let subscription = signal.delay(0.1, on: scheduler).subscribe(
            next: { events.record(("\($0)", monotonicSeconds())) },
            completed: { events.record(("completed", monotonicSeconds())) }
        )
        clock.step(by: step)
        let start = monotonicSeconds()
        input.sendNext(1)
        input.sendCompleted()
        XCTAssertTrue(eventually { events.values.count == 2 }, file: file, line: line)
        subscription.dispose()
        XCTAssertEqual(events.values.map(\.event), ["1", "completed"], file: file, line: line)
        for (event, time) in events.values {
            XCTAssertGreaterThanOrEqual(time - start, 0.1, "\(event) came early", file: file, line: line)
        }
    }
}

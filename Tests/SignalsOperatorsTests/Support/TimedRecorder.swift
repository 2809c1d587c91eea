import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// An event with the virtual time it arrived at, in seconds since `TestScheduler.startDate`.
struct Stamped<Value: Equatable & Sendable, Failure: Error & Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    let time: TimeInterval
    let event: Event<Value, Failure>

    var description: String { "\(event) at \(time)" }
}

/// `event` at `time` seconds of virtual time.
func at<Value, Failure>(_ time: TimeInterval, _ event: Event<Value, Failure>) -> Stamped<Value, Failure> {
    Stamped(time: time, event: event)
}

/// Seconds of virtual time since `TestScheduler.startDate`.
func elapsed(_ scheduler: TestScheduler) -> TimeInterval {
    scheduler.now.timeIntervalSince(TestScheduler.startDate)
}

/// Subscribes to a signal and records every event with the virtual time of `scheduler`.
final class TimedRecorder<Value: Equatable & Sendable, Failure: Error & Equatable & Sendable>: Sendable {
    private let recorder = Recorder<Stamped<Value, Failure>>()
    private let box = DisposableBox()

    init(_ signal: Signal<Value, Failure>, on scheduler: TestScheduler) {
        box.disposable = signal.subscribe(
            next: { [recorder] in recorder.record(at(elapsed(scheduler), .next($0))) },
            error: { [recorder] in recorder.record(at(elapsed(scheduler), .error($0))) },
            completed: { [recorder] in recorder.record(at(elapsed(scheduler), .completed)) }
        )
    }

    /// Every event so far, with its time.
    var events: [Stamped<Value, Failure>] { recorder.values }

    /// The subscription.
    var disposable: Disposable { box.disposable! }

    func dispose() { disposable.dispose() }
}

extension Signal where Value: Equatable & Sendable, Failure: Equatable & Sendable {
    /// Subscribes and records every event with the virtual time of `scheduler`.
    func record(on scheduler: TestScheduler) -> TimedRecorder<Value, Failure> {
        TimedRecorder(self, on: scheduler)
    }
}

extension TestScheduler {
    /// Runs `action` when the virtual clock reaches `time` seconds after `startDate`.
    func at(_ time: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        schedule(after: TestScheduler.startDate.addingTimeInterval(time), action)
    }
}

/// A cold signal of `Int`s driven by hand through `input`, values, errors and completion alike;
/// each subscription counts its disposal in `disposals` and runs `onDispose`.
final class PipeSource: Sendable {
    let disposals = Counter()
    let signal: Signal<Int, TestError>
    let input: Subscriber<Int, TestError>

    init(onDispose: @escaping @Sendable () -> Void = {}) {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let disposals = disposals
        self.input = input
        signal = Signal { subscriber in
            let inner = pipe.subscribe(
                next: { subscriber.sendNext($0) },
                error: { subscriber.sendError($0) },
                completed: { subscriber.sendCompleted() }
            )
            return Disposable {
                disposals.increment()
                onDispose()
                inner.dispose()
            }
        }
    }
}

/// The disposal test every time operator shares: a subscription to `apply(source, scheduler)` is
/// disposed while it holds values and has work scheduled. The scheduled work is cancelled,
/// nothing arrives afterwards, and the source's subscription is disposed once.
func assertDisposalMidStream<Value: Equatable & Sendable>(
    _ apply: (Signal<Int, TestError>, TestScheduler) -> Signal<Value, TestError>,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let scheduler = TestScheduler()
    let source = PipeSource()
    let recorder = apply(source.signal, scheduler).record(on: scheduler)
    source.input.sendNext(1)
    source.input.sendNext(2)
    recorder.dispose()
    XCTAssertTrue(scheduler.isEmpty, "scheduled work was not cancelled", file: file, line: line)
    source.input.sendNext(3)
    source.input.sendCompleted()
    scheduler.run()
    XCTAssertEqual(recorder.events, [], file: file, line: line)
    XCTAssertEqual(source.disposals.value, 1, file: file, line: line)
}


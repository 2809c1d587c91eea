import Disposables
import Foundation
import Schedulers

extension TestScheduler {
    /// A cold signal that sends the events of a marble diagram, each subscription from its own
    /// start, in this scheduler's virtual time.
    ///
    /// Each subscription schedules the diagram anew: the events of frame `k` are sent `k × frame`
    /// seconds after the subscription, in the order written, when the scheduler gets there (frame
    /// 0's events too: nothing is sent inside `subscribe`). `|` completes, `#` fails with `error`.
    /// Disposing a subscription cancels what it has not sent yet.
    ///
    /// Subscribe through ``TestScheduler/record(_:)``, or inside the scheduler's
    /// `performAsCurrentScheduler`: like every created signal, this one (and any operator on it)
    /// subscribed with no scheduler current, as on a plain thread or in a Swift Testing test, is
    /// subscribed later on `Scheduler.subscription`, possibly after the scheduler has run, and
    /// then nothing is sent.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let signal = scheduler.createColdSignal("-a-b|", values: ["a": 1, "b": 2], error: MyError.boom)
    /// let recording = scheduler.record(signal.map { $0 * 10 })
    /// scheduler.run()
    /// recording.marbles(values: ["a": 10, "b": 20])   // "-a-b|"
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram (see ``Marbles``), without `^`: a cold signal starts at each
    ///     subscription.
    ///   - values: The value each letter or digit of the diagram stands for.
    ///   - error: What `#` sends.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: A signal whose events come from this scheduler's blocks, and that logs its
    ///   subscriptions.
    ///
    /// Malformed diagrams, a `^`, and letters missing from `values` stop the program with a
    /// message that names this function, the diagram and the offset.
    ///
    /// RAC 2.5 has none; new, after RxJS's `cold(marbles, values, error)`.
    public func createColdSignal<Value: Sendable, Failure>(
        _ marbles: String,
        values: [Character: Value] = [:],
        error: Failure,
        frame: TimeInterval = 1
    ) -> TestSignal<Value, Failure> {
        makeColdSignal(marbles, values: values, error: error, frame: frame, function: "TestScheduler.createColdSignal(_:values:error:frame:)")
    }

    /// A cold signal that cannot fail and sends the events of a marble diagram, each subscription
    /// from its own start, in this scheduler's virtual time.
    ///
    /// As ``createColdSignal(_:values:error:frame:)``, for diagrams without `#`.
    ///
    /// ```swift
    /// let ticks: Signal<Int, Never> = scheduler.createColdSignal("a-b-c|", values: ["a": 1, "b": 2, "c": 3])
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram (see ``Marbles``), without `^` or `#`.
    ///   - values: The value each letter or digit of the diagram stands for.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: A signal whose events come from this scheduler's blocks, and that logs its
    ///   subscriptions.
    ///
    /// RAC 2.5 has none; new.
    public func createColdSignal<Value: Sendable>(
        _ marbles: String,
        values: [Character: Value] = [:],
        frame: TimeInterval = 1
    ) -> TestSignal<Value, Never> {
        makeColdSignal(marbles, values: values, error: nil, frame: frame, function: "TestScheduler.createColdSignal(_:values:frame:)")
    }

    /// A hot signal that sends the events of a marble diagram once, in this scheduler's virtual
    /// time, to whoever is subscribed when each comes.
    ///
    /// Frame zero is now, when the signal is made, or the position of `^` in the diagram. The
    /// events of frame `k ≥ 0` are sent `k × frame` seconds later, in the order written, when the
    /// scheduler gets there; those before `^` are sent at once, before anyone can subscribe, so
    /// they matter only when they end the signal: a subscriber then receives the end at once.
    /// A subscriber receives only what comes after it subscribed; disposing its subscription
    /// detaches it, and the diagram plays on for the others. Subscribe as for
    /// ``createColdSignal(_:values:error:frame:)``: through ``TestScheduler/record(_:)``, or inside
    /// the scheduler's `performAsCurrentScheduler`.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let hot = scheduler.createHotSignal("a-b-c", values: ["a": 1, "b": 2, "c": 3], error: MyError.boom)
    /// scheduler.advance(by: 1)
    /// let late = scheduler.record(hot)
    /// scheduler.run()
    /// late.marbles(values: ["b": 2, "c": 3])   // "-b-c" (recorded from 1 s)
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram (see ``Marbles``), with at most one `^`.
    ///   - values: The value each letter or digit of the diagram stands for.
    ///   - error: What `#` sends.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: A hot signal, as ``Signal/pipe()`` makes, that logs its subscriptions.
    ///
    /// Malformed diagrams and letters missing from `values` stop the program with a message that
    /// names this function, the diagram and the offset.
    ///
    /// RAC 2.5 has none; new, after RxJS's `hot(marbles, values, error)`.
    public func createHotSignal<Value: Sendable, Failure>(
        _ marbles: String,
        values: [Character: Value] = [:],
        error: Failure,
        frame: TimeInterval = 1
    ) -> TestSignal<Value, Failure> {
        makeHotSignal(marbles, values: values, error: error, frame: frame, function: "TestScheduler.createHotSignal(_:values:error:frame:)")
    }

    /// A hot signal that cannot fail and sends the events of a marble diagram once, in this
    /// scheduler's virtual time, to whoever is subscribed when each comes.
    ///
    /// As ``createHotSignal(_:values:error:frame:)``, for diagrams without `#`.
    ///
    /// - Parameters:
    ///   - marbles: The diagram (see ``Marbles``), with at most one `^` and no `#`.
    ///   - values: The value each letter or digit of the diagram stands for.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: A hot signal, as ``Signal/pipe()`` makes, that logs its subscriptions.
    ///
    /// RAC 2.5 has none; new.
    public func createHotSignal<Value: Sendable>(
        _ marbles: String,
        values: [Character: Value] = [:],
        frame: TimeInterval = 1
    ) -> TestSignal<Value, Never> {
        makeHotSignal(marbles, values: values, error: nil, frame: frame, function: "TestScheduler.createHotSignal(_:values:frame:)")
    }

    /// A hot signal that sends `events` once, each at its time on this scheduler's clock, to
    /// whoever is subscribed when it comes: RxTest's hot observable.
    ///
    /// Each event is sent when the scheduler reaches `clockStart + time` (absolute virtual time,
    /// `TestScheduler.clock`), events of the same time in the order given; those
    /// whose time the clock has passed are sent at once, before anyone can subscribe, so they
    /// matter only when they end the signal. Nothing follows a terminal event. Subscribe as for
    /// ``createColdSignal(_:values:error:frame:)``: in ``Schedulers/TestScheduler/start(created:subscribed:disposed:_:)``,
    /// through ``Schedulers/TestScheduler/record(_:)``, or inside `performAsCurrentScheduler`.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let typed: TestSignal<String, Never> = scheduler.createHotSignal([.next(150, "r"), .next(210, "re"), .completed(300)])
    /// scheduler.start { typed }.events   // [.next(210, "re"), .completed(300)]
    /// ```
    ///
    /// - Parameter events: The events, each with its time in seconds on the clock.
    /// - Returns: A hot signal, as ``Signal/pipe()`` makes, that logs its subscriptions.
    ///
    /// A time that is NaN stops the program with a message naming this function and the event.
    ///
    /// RAC 2.5 has none; new, after RxTest's `TestScheduler.createHotObservable(_:)`.
    public func createHotSignal<Value: Sendable, Failure>(_ events: [Recorded<Value, Failure>]) -> TestSignal<Value, Failure> {
        for recorded in events {
            checkInput(!recorded.time.isNaN, "TestScheduler.createHotSignal(_:) needs times that are numbers, got \(recorded)")
        }
        let (pipe, input) = Signal<Value, Failure>.pipe()
        let clock = clock
        for recorded in events {
            if recorded.time < clock {
                input.sendEvent(recorded.event)
            } else {
                schedule(after: clockStart.addingTimeInterval(recorded.time)) { input.sendEvent(recorded.event) }
            }
        }
        return TestSignal(on: self) { subscriber in pipe.subscribe(subscriber) }
    }

    /// A cold signal that sends `events`, each subscription from its own start, each event at its
    /// time after the subscription: RxTest's cold observable.
    ///
    /// Each subscription schedules the events anew: an event of time `t` is sent `t` seconds after
    /// the subscription (a time of zero or less: at the subscription's time, but not inside
    /// `subscribe`), events of the same time in the order given; nothing follows a terminal event.
    /// Disposing a subscription cancels what it has not sent yet. Subscribe as for
    /// ``createColdSignal(_:values:error:frame:)``.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let reply: TestSignal<[String], Never> = scheduler.createColdSignal([.next(2, ["rac"]), .completed(2)])
    /// scheduler.start { reply }.events   // [.next(202, ["rac"]), .completed(202)]
    /// ```
    ///
    /// - Parameter events: The events, each with its time in seconds after the subscription.
    /// - Returns: A signal whose events come from this scheduler's blocks, and that logs its
    ///   subscriptions.
    ///
    /// A time that is NaN stops the program with a message naming this function and the event.
    ///
    /// RAC 2.5 has none; new, after RxTest's `TestScheduler.createColdObservable(_:)`.
    public func createColdSignal<Value: Sendable, Failure>(_ events: [Recorded<Value, Failure>]) -> TestSignal<Value, Failure> {
        for recorded in events {
            checkInput(!recorded.time.isNaN, "TestScheduler.createColdSignal(_:) needs times that are numbers, got \(recorded)")
        }
        return TestSignal(on: self) { subscriber in
            let start = self.now
            let scheduled = CompoundDisposable()
            for recorded in events {
                scheduled.add(self.schedule(after: start.addingTimeInterval(max(recorded.time, 0))) {
                    subscriber.sendEvent(recorded.event)
                })
            }
            return scheduled
        }
    }

    private func makeColdSignal<Value: Sendable, Failure>(
        _ marbles: String,
        values: [Character: Value],
        error: Failure?,
        frame: TimeInterval,
        function: String
    ) -> TestSignal<Value, Failure> {
        let diagram = MarbleEvents(marbles, values: values, error: error, frame: frame, function: function)
        checkInput(!diagram.hasZeroMarker, "\(function): a cold signal starts at each subscription and has no '^', in marble diagram \"\(marbles)\"")
        return TestSignal(on: self) { subscriber in
            let start = self.now
            let scheduled = CompoundDisposable()
            for (time, events) in diagram.frames {
                scheduled.add(self.schedule(after: start.addingTimeInterval(time)) {
                    for event in events { subscriber.sendEvent(event) }
                })
            }
            return scheduled
        }
    }

    private func makeHotSignal<Value: Sendable, Failure>(
        _ marbles: String,
        values: [Character: Value],
        error: Failure?,
        frame: TimeInterval,
        function: String
    ) -> TestSignal<Value, Failure> {
        let diagram = MarbleEvents(marbles, values: values, error: error, frame: frame, function: function)
        let (pipe, input) = Signal<Value, Failure>.pipe()
        let start = now
        for (time, events) in diagram.frames {
            if time < 0 {
                for event in events { input.sendEvent(event) }
            } else {
                schedule(after: start.addingTimeInterval(time)) {
                    for event in events { input.sendEvent(event) }
                }
            }
        }
        return TestSignal(on: self) { subscriber in pipe.subscribe(subscriber) }
    }
}

/// A signal made from a marble diagram by a `TestScheduler` (module `Schedulers`), which logs when each subscription
/// to it began and ended, so that a test can check when an operator subscribes to its source and
/// lets go of it.
///
/// ```swift
/// let source = scheduler.createColdSignal("-a-b-c|", values: ["a": 1, "b": 2, "c": 3], error: MyError.boom)
/// let recording = scheduler.start { source.take(2) }
/// source.subscriptions   // [(200.0 s, 203.0 s)]: take(2) let go of it with b
/// XCTAssertEqual(source.subscriptions, [.init(200, 203)])
/// ```
///
/// The times are the scheduler's clock (`TestScheduler.clock`, seconds since its
/// `clockStart`), as RxTest's subscriptions are, whenever the signal was made.
///
/// Made by ``Schedulers/TestScheduler/createColdSignal(_:values:error:frame:)`` and
/// ``Schedulers/TestScheduler/createHotSignal(_:values:error:frame:)``; use it as any other signal.
///
/// RAC 2.5 has none; new, after RxJS's `ColdObservable` and `HotObservable` and their
/// `subscriptions`.
// `@unchecked Sendable` restates `Signal`'s; the one stored property this class adds, the log,
// is `Sendable` and guards its array with a lock.
public final class TestSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
    /// When a subscription began and ended, in seconds on the scheduler's clock
    /// (`TestScheduler.clock`): absolute virtual times.
    ///
    /// Write the expected ones as RxTest's `Subscription(200, 1000)`:
    /// `XCTAssertEqual(source.subscriptions, [.init(200, 1000)])`, and `.init(200)` for one still
    /// going. It prints as `(200.0 s, 1000.0 s)` or `(200.0 s, still going)`.
    ///
    /// RAC 2.5 has none; new, after RxTest's `Subscription`.
    public struct Subscription: Hashable, Sendable, CustomStringConvertible {
        /// When `subscribe` was called.
        public var subscribed: TimeInterval
        /// When the subscription was disposed, by its subscriber or by the signal's terminal event
        /// (which disposes it as it is sent); `nil` while it lasts.
        public var disposed: TimeInterval?

        /// A subscription from `subscribed` to `disposed` (`nil`: still going).
        public init(subscribed: TimeInterval, disposed: TimeInterval? = nil) {
            self.subscribed = subscribed
            self.disposed = disposed
        }

        /// A subscription from `subscribed` to `disposed` (`nil`: still going), as RxTest's
        /// `Subscription(200, 1000)` is written.
        public init(_ subscribed: TimeInterval, _ disposed: TimeInterval? = nil) {
            self.init(subscribed: subscribed, disposed: disposed)
        }

        /// `(200.0 s, 1000.0 s)`, or `(200.0 s, still going)`.
        public var description: String {
            "(\(subscribed) s, \(disposed.map { "\($0) s" } ?? "still going"))"
        }
    }

    private let log: SubscriptionLog

    init(on scheduler: TestScheduler, _ didSubscribe: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposable?) {
        let log = SubscriptionLog(scheduler: scheduler)
        self.log = log
        super.init { subscriber in
            let index = log.subscribed()
            let inner = didSubscribe(subscriber)
            return Disposable {
                log.disposed(index)
                inner?.dispose()
            }
        }
    }

    /// Every subscription so far, in the order they were made, timed on the scheduler's clock.
    public var subscriptions: [Subscription] {
        log.subscriptions.withLock { $0 }
    }

    /// The subscriptions to a test signal, timed on its scheduler's clock.
    private final class SubscriptionLog: Sendable {
        private let scheduler: TestScheduler
        let subscriptions = Lock<[Subscription]>([])

        init(scheduler: TestScheduler) {
            self.scheduler = scheduler
        }

        func subscribed() -> Int {
            let time = scheduler.clock
            return subscriptions.withLock { subscriptions in
                subscriptions.append(Subscription(subscribed: time))
                return subscriptions.count - 1
            }
        }

        func disposed(_ index: Int) {
            let time = scheduler.clock
            subscriptions.withLock { $0[index].disposed = time }
        }
    }
}

/// A diagram's events, by the time of their frame, for the test signals and the recording's
/// comparison.
package struct MarbleEvents<Value, Failure: Error> {
    /// Each frame that has events: its time in seconds from frame zero, and its events in order.
    package let frames: [(time: TimeInterval, events: [Event<Value, Failure>])]
    /// Whether the diagram had a `^`.
    package let hasZeroMarker: Bool

    /// The events of `marbles`, stopping the program with a message that names `function` when
    /// the diagram is malformed, a letter is missing from `values`, `#` comes with no `error`, or
    /// `frame` is not positive.
    package init(_ marbles: String, values: [Character: Value], error: Failure?, frame: TimeInterval, function: String) {
        checkInput(frame > 0 && frame.isFinite, "\(function): the frame must be a positive number of seconds, got \(frame)")
        let diagram: Marbles
        do {
            diagram = try Marbles(parsing: marbles)
        } catch {
            badInput("\(function): \(error)")
        }
        var frames: [(time: TimeInterval, events: [Event<Value, Failure>])] = []
        var lastFrame: Int?
        for mark in diagram.marks {
            let event: Event<Value, Failure>
            switch mark.symbol {
            case "|":
                event = .completed
            case "#":
                guard let error else {
                    badInput("\(function): '#' in marble diagram \"\(marbles)\", but the signal cannot fail")
                }
                event = .error(error)
            default:
                guard let value = values[mark.symbol] else {
                    badInput("\(function): no value for '\(mark.symbol)' of marble diagram \"\(marbles)\" (at frame \(mark.frame)) in the values table")
                }
                event = .next(value)
            }
            if lastFrame == mark.frame {
                frames[frames.count - 1].events.append(event)
            } else {
                frames.append((Double(mark.frame) * frame, [event]))
                lastFrame = mark.frame
            }
        }
        self.frames = frames
        hasZeroMarker = diagram.hasZeroMarker
    }
}

extension MarbleEvents: Sendable where Value: Sendable {}

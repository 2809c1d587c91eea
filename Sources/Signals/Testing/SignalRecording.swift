import Disposables
import Foundation
import Schedulers

extension TestScheduler {
    /// Subscribes to `signal` at once and records each event with the virtual time it came at.
    ///
    /// The subscription is made with this scheduler as `Scheduler.current`, so it happens
    /// during this call on any thread (the main thread, a plain thread, a Swift Testing task).
    ///
    /// Times count from now, the moment of this call: a signal made and recorded before the
    /// scheduler moves has its events at the times of its diagram. Keep the recording, step or
    /// run the scheduler, then compare ``SignalRecording/events`` or the diagram
    /// (``SignalRecording/mismatch(expected:values:error:frame:)``).
    ///
    /// The times are this scheduler's: record a signal on the scheduler that drives it. A signal
    /// driven by another scheduler is recorded with this one's clock, which that one does not
    /// move, so every event would read as coming at the same time.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let source = scheduler.createColdSignal("a-b|", values: ["a": 1, "b": 2], error: MyError.boom)
    /// let recording = scheduler.record(source.delay(1, on: scheduler))
    /// scheduler.run()
    /// recording.events   // [.next(1, 1), .next(3, 2), .completed(4)]
    /// ```
    ///
    /// - Parameter signal: The signal to subscribe to.
    /// - Returns: The recording, subscribed until `signal` ends or ``SignalRecording/dispose()``.
    ///
    /// RAC 2.5 has none; new, after RxSwift's `TestScheduler.start` and `TestableObserver`.
    public func record<Value: Sendable, Failure>(_ signal: Signal<Value, Failure>) -> SignalRecording<Value, Failure> {
        SignalRecording(signal, on: self)
    }
}

/// An event of a recording, with the virtual time it came at.
///
/// RAC 2.5 has none; new, after RxSwift's `Recorded`.
public struct Recorded<Value, Failure: Error>: CustomStringConvertible {
    /// Seconds of virtual time from the recording's ``SignalRecording/startDate``: from the
    /// `record(_:)` call for a recording it made; on the scheduler's clock (absolute virtual
    /// time, `TestScheduler.clock`) for one made by `start(created:subscribed:disposed:_:)` and
    /// for the events given to `createHotSignal(_:)`; from each subscription for those given to
    /// `createColdSignal(_:)`.
    public var time: TimeInterval
    /// The event.
    public var event: Event<Value, Failure>

    /// `event` at `time` seconds.
    public init(time: TimeInterval, event: Event<Value, Failure>) {
        self.time = time
        self.event = event
    }

    /// The value `value` at `time` seconds.
    public static func next(_ time: TimeInterval, _ value: Value) -> Recorded {
        Recorded(time: time, event: .next(value))
    }

    /// The error `error` at `time` seconds.
    public static func error(_ time: TimeInterval, _ error: Failure) -> Recorded {
        Recorded(time: time, event: .error(error))
    }

    /// Completion at `time` seconds.
    public static func completed(_ time: TimeInterval) -> Recorded {
        Recorded(time: time, event: .completed)
    }

    /// `next(1) at 2.0 s`.
    public var description: String {
        "\(event) at \(time) s"
    }
}

extension Recorded: Equatable where Value: Equatable, Failure: Equatable {}
extension Recorded: Hashable where Value: Hashable, Failure: Hashable {}
extension Recorded: Sendable where Value: Sendable {}

/// The events a signal sent under a `TestScheduler` (module `Schedulers`), with their virtual times, and their
/// marble diagram.
///
/// Made by ``Schedulers/TestScheduler/record(_:)``, which subscribes at once, or by
/// ``Schedulers/TestScheduler/start(created:subscribed:disposed:_:)``, which subscribes at
/// `subscribed`; the recording holds the subscription until the signal ends or ``dispose()`` is
/// called. Times are seconds of the scheduler's virtual time from ``startDate``: from the call of
/// `record(_:)` (relative times), or, for `start`, from the scheduler's `clockStart` (absolute
/// times, on `TestScheduler.clock`, as RxTest's are). An event that comes after the scheduler is
/// gone gets the time `nan`.
///
/// Compare ``events`` with exact times, or the diagram with
/// ``mismatch(expected:values:error:frame:)`` when values and errors are `Equatable`; for other
/// failure types, compare ``marbles(values:frame:)``, which draws every error as `#`.
///
/// RAC 2.5 has none; new, after RxSwift's `TestableObserver`.
public final class SignalRecording<Value: Sendable, Failure: Error>: Sendable {
    /// Time zero of the recorded times: the scheduler's date when `record(_:)` was called, or,
    /// for a recording of `start(created:subscribed:disposed:_:)`, the scheduler's `clockStart`,
    /// so that its times are absolute virtual times.
    public let startDate: Date

    private let log: Log
    /// The subscription, put in when it is made: at once for `record(_:)`, at `subscribed` for
    /// `start(created:subscribed:disposed:_:)`.
    private let subscription = SerialDisposable()

    convenience init(_ signal: Signal<Value, Failure>, on scheduler: TestScheduler) {
        self.init(timedFrom: scheduler.now, on: scheduler)
        subscribe(to: signal, on: scheduler)
    }

    /// A recording that has not subscribed yet, whose times count from `start`.
    init(timedFrom start: Date, on scheduler: TestScheduler) {
        startDate = start
        log = Log(scheduler: scheduler, start: start)
    }

    /// Subscribes to `signal`, with `scheduler` current; once ``dispose()`` has been called,
    /// the subscription is disposed as it is made.
    func subscribe(to signal: Signal<Value, Failure>, on scheduler: TestScheduler) {
        // The subscription's closures hold the log, not the recording, which holds the
        // subscription: no cycle keeps an unfinished recording alive. With the test scheduler
        // current, `Scheduler.subscription` subscribes here and now on any thread, not later on
        // a background scheduler (Swift Testing runs tests off the main thread).
        let log = log
        var made: Disposable?
        scheduler.performAsCurrentScheduler {
            made = signal.subscribe(
                next: { log.append(.next($0)) },
                error: { log.append(.error($0)) },
                completed: { log.append(.completed) }
            )
        }
        subscription.disposable = made
    }

    /// Every event so far, with its time, in the order they came.
    public var events: [Recorded<Value, Failure>] {
        log.events
    }

    /// The values so far, without their times.
    public var values: [Value] {
        log.events.compactMap(\.event.value)
    }

    /// Whether the subscription has ended, by a terminal event or by ``dispose()``; `false`
    /// before a recording of ``Schedulers/TestScheduler/start(created:subscribed:disposed:_:)``
    /// has subscribed.
    public var isDisposed: Bool {
        subscription.isDisposed || subscription.disposable?.isDisposed == true
    }

    /// Ends the subscription, or the one still to be made; nothing more is recorded.
    public func dispose() {
        subscription.dispose()
    }

    /// The recording as a marble diagram, with a letter or digit for each value found in `values`.
    ///
    /// Each event is drawn at its frame, `(…)` around events of the same frame, `|` for completion
    /// and `#` for an error. A value missing from the table is drawn `?`; an event between two
    /// frames (more than a billionth of a frame off, or more than `Date`'s rounding where the clock
    /// started far from the reference date) is drawn `!` in the frame it falls in. Neither parses,
    /// so a diagram with them never matches an expected one. The diagram ends with the last event,
    /// wherever the clock is.
    ///
    /// ```swift
    /// recording.marbles(values: ["a": 1, "b": 2])   // "-a-b|"
    /// ```
    ///
    /// - Parameters:
    ///   - values: The character of each value; when several stand for one value, the smallest.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: The diagram.
    ///
    /// An event more than 100,000 frames from the start stops the program with a message saying
    /// so: use a larger frame.
    ///
    /// RAC 2.5 has none; new.
    public func marbles(values: [Character: Value], frame: TimeInterval = 1) -> String where Value: Equatable {
        marbles(frame: frame, symbols(for: values))
    }

    /// The recording as a marble diagram, with the character `symbol` returns for each value.
    ///
    /// As ``marbles(values:frame:)``: events at their frames, `(…)` around a frame's events, `|`,
    /// `#`, and `!` for an event between two frames.
    ///
    /// ```swift
    /// recording.marbles { Character(String($0)) }   // "-1-2|" for the values 1 and 2
    /// ```
    ///
    /// - Parameters:
    ///   - frame: The seconds of virtual time one character stands for; positive.
    ///   - symbol: The character of a value; it should be a letter or digit, so that the diagram
    ///     parses.
    /// - Returns: The diagram.
    ///
    /// RAC 2.5 has none; new.
    public func marbles(frame: TimeInterval = 1, _ symbol: (Value) -> Character) -> String {
        let function = "SignalRecording.marbles(frame:_:)"
        checkInput(frame > 0 && frame.isFinite, "\(function): the frame must be a positive number of seconds, got \(frame)")
        guard let diagram = diagram(of: events, frame: frame, symbol) else {
            badInput("\(function): an event comes more than \(Self.frameLimit) frames of \(frame) s after the start (\(events.last.map(String.init(describing:)) ?? "")); use a larger frame")
        }
        return diagram.description
    }

    /// The character of each value in `table`: the smallest of those that stand for it, or `?`.
    func symbols(for table: [Character: Value]) -> (Value) -> Character where Value: Equatable {
        let entries = table.sorted { $0.key < $1.key }
        return { value in entries.first { $0.value == value }?.key ?? "?" }
    }

    /// How many frames a diagram may span.
    static var frameLimit: Int { 100_000 }

    /// How far from `time` a recorded time may be and still count as `time`: a billionth of a
    /// frame, or, on a clock far from the reference date (`TestScheduler(startDate: Date())`), a
    /// few units in the last place of the dates there, which is how far apart `Date` arithmetic
    /// (the signal's `start + k × frame`, the recording's `now − start`) rounds them.
    func tolerance(frame: TimeInterval, at time: TimeInterval) -> TimeInterval {
        let magnitude = abs(startDate.timeIntervalSinceReferenceDate) + abs(time)
        return max(frame * 1e-9, 4 * magnitude.ulp)
    }

    /// `events` as a diagram of frames of `frame` seconds, or `nil` when one is too far to draw.
    func diagram(of events: [Recorded<Value, Failure>], frame: TimeInterval, _ symbol: (Value) -> Character) -> Marbles? {
        var marks: [Marbles.Mark] = []
        for recorded in events {
            let position = recorded.time / frame
            let nearest = position.rounded()
            let onGrid = abs(position - nearest) * frame <= tolerance(frame: frame, at: recorded.time)
            let slot = onGrid ? nearest : position.rounded(.down)
            // A time that is not a number, or before the start, is off the grid in the last frame.
            guard slot.isNaN || slot < Double(Self.frameLimit) else { return nil }
            let frameIndex = slot.isNaN || slot < 0 ? (marks.last?.frame ?? 0) : max(Int(slot), marks.last?.frame ?? 0)
            let character: Character
            switch recorded.event {
            case let .next(value): character = onGrid ? symbol(value) : "!"
            case .error: character = onGrid ? "#" : "!"
            case .completed: character = onGrid ? "|" : "!"
            }
            marks.append(Marbles.Mark(frame: frameIndex, symbol: character))
        }
        return Marbles(marks: marks)
    }
}

extension SignalRecording {
    /// The recorded events, and the scheduler and date they are timed by.
    private final class Log: Sendable {
        /// Held weakly, so that a recording kept after its test does not keep the scheduler; under
        /// the lock because a `Sendable` class may not have a `weak var` of its own (and `weak let`
        /// needs a newer compiler than the package asks for).
        private let scheduler: Lock<WeakScheduler>
        private let start: Date
        private let recorded = Lock<[Recorded<Value, Failure>]>([])

        init(scheduler: TestScheduler, start: Date) {
            self.scheduler = Lock(WeakScheduler(scheduler: scheduler))
            self.start = start
        }

        var events: [Recorded<Value, Failure>] {
            recorded.withLock { $0 }
        }

        func append(_ event: Event<Value, Failure>) {
            let time = scheduler.withLock { $0.scheduler }.map { $0.now.timeIntervalSince(start) } ?? .nan
            recorded.withLock { $0.append(Recorded(time: time, event: event)) }
        }
    }
}

/// A weak reference to a test scheduler.
private struct WeakScheduler {
    weak var scheduler: TestScheduler?
}

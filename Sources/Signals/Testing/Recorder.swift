import Disposables

/// A thread-safe list of what happened, in order, that a test captures in any closure (a
/// `@Sendable` one included) with no lock of its own: the call log of a fake, or of a callback.
///
/// ```swift
/// let calls = Recorder<String>()
/// let api = SearchAPI(search: { query in
///     calls.record(query)
///     return .return([])
/// })
/// // … drive the code under test …
/// XCTAssertEqual(calls.values, ["rac"])
/// ```
///
/// `calls(query)` is `calls.record(query)`, so a recorder can stand where a closure is expected
/// (`onChange: calls.callAsFunction`); a `Recorder<Void>` counts calls with `calls()`. Each call
/// takes a lock around one append, and never calls out while it holds it, so threads may record
/// at once; ``values`` is a copy taken under the lock.
///
/// For a signal's events with their virtual times, use
/// ``Schedulers/TestScheduler/start(created:subscribed:disposed:_:)`` or
/// ``Schedulers/TestScheduler/record(_:)``, whose ``SignalRecording`` compares with exact times
/// and marble diagrams; a recorder keeps what a fake was asked, and the test signals it answered
/// with (whose ``TestSignal/subscriptions`` say when each was subscribed and let go of).
///
/// RAC 2.5 has none; new, in the part of RxTest's `TestableObserver` (`scheduler.createObserver`)
/// that a fake's call log needs.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements = Lock<[Element]>([])

    /// An empty recorder.
    public init() {}

    /// Everything recorded so far, in the order it was recorded.
    public var values: [Element] {
        elements.withLock { $0 }
    }

    /// How many elements have been recorded.
    public var count: Int {
        elements.withLock { $0.count }
    }

    /// The last element recorded, or `nil` before the first.
    public var last: Element? {
        elements.withLock { $0.last }
    }

    /// Appends `element`.
    public func record(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Appends `element`: `calls(query)` is `calls.record(query)`.
    public func callAsFunction(_ element: Element) {
        record(element)
    }

    /// Forgets everything recorded so far, for a test with several phases.
    public func removeAll() {
        elements.withLock { $0.removeAll() }
    }
}

extension Recorder where Element == Void {
    /// Records one call: `called()` for a `Recorder<Void>`; ``count`` counts them.
    public func callAsFunction() {
        record(())
    }
}

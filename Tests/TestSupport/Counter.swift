import Synchronization
import Disposables
import Signals

/// A thread-safe counter, for counting how often an action ran.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// The count so far.
    public var value: Int { count.load(ordering: .acquiring) }

    /// Adds one.
    public func increment() {
        count.add(1, ordering: .acquiringAndReleasing)
    }

    /// Takes one away.
    public func decrement() {
        count.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// A thread-safe list that records what happened, in order, for comparing whole sequences: the
/// library's own test recorder, so that the package's tests use what its users do.
public typealias Recorder = Signals.Recorder

/// An object to capture in closures and watch with a weak reference: when the closure is
/// released, so is the token.
public final class LifetimeToken: Sendable {
    public init() {}
}

/// A weak reference, to check that nothing keeps an object alive.
public final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    public private(set) weak var object: Object?

    public init(_ object: Object) {
        self.object = object
    }

    /// Whether something still holds the object.
    public var isAlive: Bool { object != nil }
}

/// Runs `body` with a new token for it to capture, and returns what it made with a weak reference
/// to the token: once whatever `body` built lets go of its closures, the token is gone.
///
/// ```swift
/// let (disposable, token) = trackingLifetime { token in Disposable { _ = token } }
/// disposable.dispose()
/// XCTAssertFalse(token.isAlive)
/// ```
public func trackingLifetime<Result>(_ body: (LifetimeToken) -> Result) -> (Result, WeakReference<LifetimeToken>) {
    let token = LifetimeToken()
    return (body(token), WeakReference(token))
}

/// Subscribes through `transform` to a new pipe with a closure capturing a token, sends one value,
/// then lets go of the pipe's input and signal and, unless `keepingTheDisposable`, of the
/// disposable; returns a weak reference to the token, which should be gone: a subscription lives
/// only while its source can send to it.
public func letGoOfAPipe<Value>(
    through transform: (Signal<Int, Never>) -> Signal<Value, Never>,
    keepingTheDisposable: Bool = false
) -> WeakReference<LifetimeToken> {
    var kept: Disposable?
    let (_, token) = trackingLifetime { token in
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = transform(signal).subscribe(next: { _ in _ = token })
        if keepingTheDisposable { kept = subscription }
        input.sendNext(1)
    }
    kept?.dispose()
    return token
}

/// Checks that numbered steps come in order, 0, 1, 2, …, without keeping them: for sequences too
/// long to record.
public final class StepOrder: Sendable {
    private let next = Atomic<Int>(0)
    private let firstMiss = Lock<String?>(nil)

    public init() {}

    /// How many steps came in order, before any out of order.
    public var inOrder: Int { next.load(ordering: .acquiring) }

    /// The first step that came out of order, and the one expected then; `nil` when none did.
    public var miss: String? { firstMiss.withLock { $0 } }

    /// Records that `step` happened.
    public func arrive(_ step: Int) {
        let (exchanged, expected) = next.compareExchange(expected: step, desired: step + 1, ordering: .acquiringAndReleasing)
        if !exchanged {
            firstMiss.withLock { miss in
                if miss == nil { miss = "step \(step) came when step \(expected) was expected" }
            }
        }
    }
}

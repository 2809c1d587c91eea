import Disposables

/// The values of a signal as an `AsyncSequence`, for a `for await` loop.
///
/// Each iterator subscribes to the signal once, at its first `next()`, and buffers what arrives
/// while the loop is busy, as its ``BufferingPolicy`` says. The loop gets every value, then ends
/// when the signal completes; when the signal fails, the error is thrown (typed: a
/// `SignalValues<Value, Never>` needs no `try`), once, and the iterator returns `nil` afterwards.
///
/// Leaving the loop (`break`, `return`, a thrown error) disposes the subscription, and so does
/// cancelling the consuming task: the suspended `next()` returns `nil` at once and the loop
/// ends. As with `AsyncStream`, cancellation is not thrown, and the values still buffered are
/// dropped. A signal that never ends keeps the loop waiting until the task is cancelled, even
/// one that nothing can send to any more (a pipe whose input was released).
///
/// ```swift
/// let numbers = Signal<Int, Never> { subscriber in
///     for value in 1...3 { subscriber.sendNext(value) }
///     subscriber.sendCompleted()
///     return nil
/// }
/// for await value in numbers.values { print(value) }   // prints 1, 2, 3
/// ```
///
/// Where the signal subscribes at once (on the main actor, in a scheduler's block: see
/// `Scheduler.subscription`), a signal that sends synchronously runs to its end inside the
/// first `next()`, filling the buffer before the loop sees a value; one that sends synchronously
/// for ever never returns from it, whatever the policy (a bounded one only keeps the memory
/// flat), and cancelling the task does not stop it. Subscribe it elsewhere with
/// `subscribe(on:)`, and bound the buffer with `.bufferingNewest(_:)` or `.bufferingOldest(_:)`
/// when the signal can outpace the loop.
///
/// New; RAC 2.5 has none (its nearest is `-toArray`, which blocks).
public struct SignalValues<Value, Failure: Error>: AsyncSequence {
    /// The signal's value type; the sequence's `Failure` is the signal's.
    public typealias Element = Value

    /// What the iterator keeps of the values that arrive while the loop is not waiting for one;
    /// the same meaning as `AsyncStream`'s policy.
    public enum BufferingPolicy: Sendable {
        /// Keeps every value.
        case unbounded
        /// Keeps at most the newest `n` values, dropping the oldest to make room.
        case bufferingNewest(Int)
        /// Keeps at most the oldest `n` values, dropping newer ones while it is full.
        case bufferingOldest(Int)
    }

    @usableFromInline let signal: Signal<Value, Failure>
    @usableFromInline let policy: BufferingPolicy

    @usableFromInline
    init(signal: Signal<Value, Failure>, policy: BufferingPolicy) {
        self.signal = signal
        self.policy = policy
    }

    /// Makes an iterator that subscribes at its first `next()`.
    ///
    /// - Returns: A new iterator; each one subscribes once, and disposes when it is dropped.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(ValuesIteration(ValuesChannel(signal, policy: policy)))
    }

    /// Iterates over the values of one subscription to the signal.
    ///
    /// Dropping the iterator disposes the subscription. Use it (and its copies, which share its
    /// subscription) from one task at a time: a `next()` while another is waiting stops the
    /// program with a message saying so.
    public struct Iterator: AsyncIteratorProtocol {
        /// The signal's value type.
        public typealias Element = Value

        @usableFromInline let iteration: ValuesIteration<Value, Failure>

        @usableFromInline
        init(_ iteration: ValuesIteration<Value, Failure>) {
            self.iteration = iteration
        }

        /// The next value, waiting for it if none is buffered; `nil` once the signal completed
        /// or the task was cancelled.
        ///
        /// The first call subscribes. Cancellation disposes the subscription and returns `nil`
        /// rather than throwing.
        ///
        /// - Parameter actor: The caller's actor, on which the call stays.
        /// - Returns: The next value, or `nil` at the end.
        /// - Throws: The signal's error, once; later calls return `nil`.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            try await iteration.channel.next(isolation: actor)
        }

        /// The next value, as ``next(isolation:)`` with no actor.
        @inlinable
        public mutating func next() async throws(Failure) -> Value? {
            try await iteration.channel.next(isolation: nil)
        }
    }
}

extension SignalValues: Sendable where Value: Sendable {}

extension Signal where Value: Sendable {
    /// The signal's values as an `AsyncSequence` that buffers every value (see ``SignalValues``).
    ///
    /// ```swift
    /// for await value in numbers.values { print(value) }
    /// for try await value in failing.values { print(value) }   // throws the signal's Failure
    /// ```
    ///
    /// New; RAC 2.5 has none.
    public var values: SignalValues<Value, Failure> {
        SignalValues(signal: self, policy: .unbounded)
    }

    /// The signal's values as an `AsyncSequence` that buffers as `bufferingPolicy` says (see
    /// ``SignalValues``).
    ///
    /// ```swift
    /// // A loop that only wants the latest value when it gets round to it:
    /// for await position in positions.values(bufferingPolicy: .bufferingNewest(1)) { draw(position) }
    /// ```
    ///
    /// - Parameter bufferingPolicy: What to keep while the loop is busy; a limit must not be
    ///   negative.
    /// - Returns: The sequence; each of its iterators subscribes once.
    ///
    /// New; RAC 2.5 has none.
    public func values(bufferingPolicy: SignalValues<Value, Failure>.BufferingPolicy) -> SignalValues<Value, Failure> {
        switch bufferingPolicy {
        case .unbounded:
            break
        case let .bufferingNewest(limit), let .bufferingOldest(limit):
            checkInput(limit >= 0, "Signal.values(bufferingPolicy:) needs a buffer limit of zero or more, got \(limit)")
        }
        return SignalValues(signal: self, policy: bufferingPolicy)
    }
}

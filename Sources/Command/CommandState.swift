import Signals

/// What a command's main-thread delivery has to send, in order.
@usableFromInline
enum CommandEvent<Output, Failure: Error> {
    /// `executing` changed.
    case executing(Bool)
    /// `enabled` changed.
    case enabled(Bool)
    /// An execution started: send its signal on `executionSignals`.
    case started(StartedExecution<Output>)
    /// Subscribe `execution` to the signal the signal block made: the execution's work starts.
    case subscribe(Signal<Output, Failure>, CommandExecution<Output, Failure>)
    /// An execution failed: send the error on `errors`.
    case failed(Failure)
    /// The command was released: complete every signal.
    case finished
}

/// A command's state, as a pure state machine: each change queues, in ``pending``, the events the
/// main thread must send. The command's core keeps it under its lock, and sends what it takes out
/// of it after unlocking, on the main queue, one block at a time (``claimDrain()``,
/// ``takePending()``).
///
/// `executing` and `enabled` are sent only when they change: ``sentExecuting`` and ``sentEnabled``
/// are the last values queued for them (events are sent in the order they are queued, so these
/// are what a subscriber has last seen, or will have, once the queue is sent).
///
/// Its members are `@usableFromInline` and `@inlinable`, so that a command's client specializes
/// them for its types (see ``Command``); the fields are set only by the methods below.
@usableFromInline
struct CommandState<Output, Failure: Error> {
    /// The latest value of the caller's enabled signal; `true` until it sends one.
    @usableFromInline var enabledInput = true
    /// Whether executions may overlap.
    @usableFromInline var allowsConcurrentExecution = false
    /// Executions started and not yet ended.
    @usableFromInline var running = 0
    /// How many executions have started: the next one's index.
    @usableFromInline var started: UInt64 = 0
    /// Whether the command was released: `finished` is pending, always last.
    @usableFromInline var isFinishing = false
    /// Whether `finished` has been taken to be sent: nothing more is queued.
    @usableFromInline var isFinished = false
    @usableFromInline var sentExecuting = false
    /// `nil` until the initial value is sent (`publishInitialEnabled()`): until then changes are
    /// not queued, the initial value will show them.
    @usableFromInline var sentEnabled: Bool?
    /// The events the main thread has yet to send, in order.
    @usableFromInline var pending: [CommandEvent<Output, Failure>] = []
    /// An empty array whose storage ``pending`` takes when it is handed to the main thread (see
    /// ``takePending(into:)``).
    @usableFromInline var spare: [CommandEvent<Output, Failure>] = []
    /// Whether a main-queue block that will send ``pending`` is queued or running.
    @usableFromInline var isDraining = false

    /// Whether an execution may start now: RAC 2.5's `immediateEnabled`.
    @inlinable
    var isEnabled: Bool {
        enabledInput && (allowsConcurrentExecution || running == 0)
    }

    /// `enabled`'s first value, which init sends itself; later changes are queued.
    mutating func publishInitialEnabled() -> Bool {
        let enabled = isEnabled
        sentEnabled = enabled
        return enabled
    }

    /// Starts an execution if the command is enabled, in one step with the check: returns its
    /// index, or `nil` when the command is not enabled (nothing changes then).
    @inlinable
    mutating func begin() -> UInt64? {
        // A finishing command starts nothing: not reachable through `Command` (which finishes
        // in its deinit), it keeps the machine whole for any caller.
        guard !isFinishing, isEnabled else { return nil }
        running += 1
        started += 1
        queueChanges()
        return started - 1
    }

    /// An execution ended, with `error` if it failed: the error is queued for `errors`, then the
    /// changes of `executing` and `enabled`.
    @inlinable
    mutating func end(failing error: Failure?) {
        // An invariant of the command's own bookkeeping, not bad input; said in release builds too.
        guard running > 0 else { fatalError("Command: an execution ended that had not begun") }
        running -= 1
        if let error { queue(.failed(error)) }
        queueChanges()
    }

    /// The caller's enabled signal sent `value`.
    @inlinable
    mutating func setEnabledInput(_ value: Bool) {
        enabledInput = value
        queueChanges()
    }

    @inlinable
    mutating func setAllowsConcurrentExecution(_ value: Bool) {
        allowsConcurrentExecution = value
        queueChanges()
    }

    /// The command was released: `finished` is queued, to be sent after everything else queued
    /// until it is taken, alone, by the block that sends it (so an execution that the events
    /// before it subscribe, and that ends at once, still shows on `executing`, `enabled` and
    /// `errors`); nothing is queued after that.
    @inlinable
    mutating func finish() {
        guard !isFinishing else { return }
        isFinishing = true
        pending.append(.finished)
    }

    /// Queues `event` for the main thread: last, or just before `finished` while that waits;
    /// ignored once `finished` has been taken.
    @inlinable
    mutating func queue(_ event: CommandEvent<Output, Failure>) {
        guard !isFinished else { return }
        if isFinishing {
            pending.insert(event, at: pending.endIndex - 1)
        } else {
            pending.append(event)
        }
    }

    /// Whether the caller must queue a main-queue block to send the pending events: `true` once
    /// for events queued while no block was queued or running.
    @inlinable
    mutating func claimDrain() -> Bool {
        guard !pending.isEmpty, !isDraining else { return false }
        isDraining = true
        return true
    }

    /// Takes the events to send, in order, or returns `nil` and stops draining when there are
    /// none.
    @inlinable
    mutating func takePending() -> [CommandEvent<Output, Failure>]? {
        var events: [CommandEvent<Output, Failure>] = []
        return takePending(into: &events) ? events : nil
    }

    /// Moves the events to send, in order, into `events`, which must be empty, and returns `true`;
    /// or returns `false` and stops draining when there are none.
    ///
    /// The arrays trade places, so that the block that sends the events, emptying `events` with
    /// its capacity kept after each batch, hands its storage back for the next events to be
    /// queued in (and the larger of the empty arrays is kept aside, for the next batch, when
    /// nothing is pending): a steady flow of executions allocates no array.
    @inlinable
    mutating func takePending(into events: inout [CommandEvent<Output, Failure>]) -> Bool {
        guard !pending.isEmpty else {
            isDraining = false
            if events.capacity > spare.capacity { swap(&events, &spare) }
            return false
        }
        if isFinishing {
            // `finished` is last, and goes alone, so that what the events before it cause (an
            // execution subscribed there may end at once) is still sent before it.
            guard pending.count == 1 else {
                events.append(contentsOf: pending.dropLast())
                pending.removeFirst(events.count)
                return true
            }
            isFinished = true
        }
        swap(&events, &pending)
        if pending.capacity < spare.capacity { swap(&pending, &spare) }
        return true
    }

    /// Queues `executing` and `enabled` where they changed.
    @inlinable
    mutating func queueChanges() {
        let executing = running > 0
        if executing != sentExecuting {
            sentExecuting = executing
            queue(.executing(executing))
        }
        if let sent = sentEnabled, isEnabled != sent {
            sentEnabled = isEnabled
            queue(.enabled(isEnabled))
        }
    }
}

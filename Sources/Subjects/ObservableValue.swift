import Disposables
import Signals

/// A thread-safe value cell that can be observed and bound: the replacement, on every platform,
/// for `RACObserve` on a KVO property.
///
/// - ``value`` reads and writes the current value; a write is visible to a read that follows it
///   on any thread at once.
/// - ``signal`` sends the current value to each subscriber, then every change, in the order of
///   the writes. The current value goes at once, on the subscribing thread, whatever thread that
///   is, as an observed property sends it (unlike a replay subject's replay, which goes through
///   the subscription scheduler). Writes that race from several threads, or that a subscriber's
///   callback makes (however many), may reach subscribers coalesced, but the last value a
///   subscriber gets is always the cell's final value; a write from a callback never waits for
///   another thread.
/// - ``channel`` is a terminal for two-way binding: values sent into it set the cell; changes to
///   the cell are sent to its subscribers, the current value first. A value that came in through
///   the channel is not sent back out through it, so two cells bound to each other converge
///   instead of bouncing a value between them forever.
///
/// ```swift
/// let name = ObservableValue("")
/// let field = ObservableValue("")
/// name.channel.subscribe(field.channel)
/// field.channel.subscribe(name.channel)
/// field.value = "Ada"          // name.value == "Ada"
/// ```
///
/// When the cell goes away, its channel completes, which ends the bindings made with it (as
/// RAC 2.5 does when a KVO-observed object is deallocated).
///
/// RAC 2.5: `RACObserve`, `RACChannelTo` (`RACKVOChannel`).
public final class ObservableValue<Value: Sendable>: @unchecked Sendable {
    private let state: Lock<CellState<Value>>
    private let observers = ReplaySink<Value, Never>(capacity: 1)
    /// Serializes publishing; its receiver is `observers`.
    private let input: SerialInput<Value, Never>
    /// The version last published; touched by `input`'s deliverer only.
    @exclusivity(unchecked) private var published: UInt64 = 0
    private let binding = Channel<Value>()

    /// The current value, then every change.
    ///
    /// RAC 2.5: `RACObserve(object, keyPath)`.
    public let signal: Signal<Value, Never>

    /// A cell holding `value`.
    ///
    /// RAC 2.5: a KVO-compliant property, with its initial value.
    public init(_ value: Value) {
        // The cell guards its state itself; `Lock` needs the value in a region of its own.
        nonisolated(unsafe) let initial = CellState(value: value)
        state = Lock(initial)
        observers.keep(value)
        let input = SerialInput(observers)
        self.input = input
        let observers = observers
        signal = Signal(producer: { sink in observers.subscribe(sink, synchronously: true) })
        binding.leadingTerminal.sendNext(value)
        binding.leadingTerminal.subscribe(next: { [weak self] value in self?.set(value, fromChannel: true) })
    }

    deinit {
        binding.leadingTerminal.sendCompleted()
        // Nothing can publish any more: the subscribers of `signal` can go.
        input.releaseReceiver()
    }

    /// The current value.
    ///
    /// RAC 2.5: the property's getter and setter (`valueForKey:`, `setValue:forKey:`).
    public var value: Value {
        get { state.withLock { $0.value } }
        set { set(newValue, fromChannel: false) }
    }

    /// The terminal to bind the cell with: subscribing to it gets the current value, then every
    /// change; sending a value into it sets the cell.
    ///
    /// RAC 2.5: `RACChannelTo(object, keyPath)`.
    public var channel: ChannelTerminal<Value> {
        binding.followingTerminal
    }

    private func set(_ value: Value, fromChannel: Bool) {
        state.withLock { state in
            state.value = value
            state.version += 1
            state.cameFromChannel = fromChannel
        }
        input.run { [self] in publishLatest() }
    }

    /// Sends the latest value, unless it was sent already. As `input`'s deliverer, so publishing
    /// is in the order of the writes.
    private func publishLatest() {
        let latest = state.withLock { $0 }
        guard latest.version != published else { return }
        published = latest.version
        observers.receive(latest.value)
        if latest.cameFromChannel {
            binding.followingSubject.keepSilently(latest.value)
        } else {
            binding.leadingTerminal.sendNext(latest.value)
        }
    }
}

/// What an ``ObservableValue`` holds.
private struct CellState<Value> {
    var value: Value
    /// How many writes there have been.
    var version: UInt64 = 0
    /// Whether the last write came in through the channel (and so is not sent back out).
    var cameFromChannel = false
}

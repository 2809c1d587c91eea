import Disposables
import Observation
import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
/// Swift's Observation sees the cell (it is `Observable`): reading ``value`` inside
/// `withObservationTracking`, or in a SwiftUI view's `body`, registers the read, and the next
/// change, through ``value`` or ``channel``, calls `onChange` once, on the thread that makes the
/// change, right after the new value is stored and before ``signal``'s subscribers hear of it.
/// So `onChange` may read ``value`` and gets the new value or a later one; to follow every
/// change, track again from `onChange` (SwiftUI does). Each write is a change, equal or not;
/// racing writes each notify the registrations made before them. A write from inside `onChange`
/// (to this cell, on its thread) is stored and published at once, and Observation hears of it
/// once `onChange` has returned, so it reaches a registration made in `onChange` rather than
/// calling the same `onChange` again (for an `@Observable` property it would, until the stack
/// overflows). So an `onChange` that writes the cell must not then wait for another thread to
/// see that write through Observation: it comes once `onChange` returns. A registration that
/// reads two cells and writes the other from `onChange` is called once more, from inside the
/// first call, and no further (Observation removes it only once `onChange` returns).
///
/// ```swift
/// func track(_ cell: ObservableValue<Int>) {
///     withObservationTracking {
///         print(cell.value)
///     } onChange: {
///         track(cell)          // reads the new value, and follows the next change
///     }
/// }
/// ```
///
/// A cell whose value has never been read skips Observation on writes: nothing can be tracking
/// it yet.
///
/// RAC 2.5: `RACObserve`, `RACChannelTo` (`RACKVOChannel`).
public final class ObservableValue<Value: Sendable>: @unchecked Sendable, Observable {
    /// Guards the fields below, up to `registrar`. Its value is a byte no one uses: in the unspecialized code,
    /// a lock of a generic state struct looks up the metadata of `Mutex<State<Value>>` and of the
    /// struct at each access (the zero-sized value of a `Lock<Void>` would sit, for
    /// ThreadSanitizer, at the address of the next field).
    private let gate = Lock<UInt8>(0)
    // Read and written only inside `gate`, so no two accesses overlap and the exclusivity checks
    // are not needed.
    /// The current value.
    @exclusivity(unchecked) private var current: Value
    /// How many writes there have been.
    @exclusivity(unchecked) private var version: UInt64 = 0
    /// Whether the last write came in through the channel (and so is not sent back out).
    @exclusivity(unchecked) private var cameFromChannel = false
    /// Whether ``value`` has been read: only then can Observation be tracking it.
    @exclusivity(unchecked) private var mayBeObserved = false
    /// The threads telling Observation of a write: a write one of them makes from inside
    /// `onChange` is told of after its outer one, not from inside it.
    @exclusivity(unchecked) private var notifiers: [ObservationNotifier] = []
    /// The channel behind ``channel``, made the first time it is asked for: until then, a write
    /// sends nothing to it (a quarter of a write's cost). Never changes once set.
    @exclusivity(unchecked) private var binding: Channel<Value>?
    /// The version the channel was made at, with the value of which it starts: later versions
    /// are sent to it.
    @exclusivity(unchecked) private var bindingVersion: UInt64 = 0
    /// Tells Swift's Observation of reads and writes of ``value``.
    private let registrar = ObservationRegistrar()
    /// `\.value`, made once: a key path into a generic class is built anew at each use otherwise.
    private let valueKeyPath: KeyPath<ObservableValue, Value>
    private let observers = ReplaySink<Value, Never>(capacity: 1)
    /// Serializes publishing; its receiver is `observers`.
    private let input: SerialInput<Value, Never>
    /// The version last published; touched by `input`'s deliverer only.
    @exclusivity(unchecked) private var published: UInt64 = 0

    /// The current value, then every change.
    ///
    /// RAC 2.5: `RACObserve(object, keyPath)`.
    public let signal: Signal<Value, Never>

    /// A cell holding `value`.
    ///
    /// RAC 2.5: a KVO-compliant property, with its initial value.
    public init(_ value: Value) {
        current = value
        valueKeyPath = \ObservableValue.value
        observers.keep(value)
        let input = SerialInput(observers)
        self.input = input
        let observers = observers
        signal = Signal(producer: { sink in observers.subscribe(sink, synchronously: true) })
    }

    deinit {
        // A deinit never waits: what the channel's subscribers owe a subject's bound is forgiven.
        let bound = gate.withLock { _ in binding }
        DeliveryContext.neverWaiting { bound?.leadingTerminal.sendCompleted() }
        // Nothing can publish any more: the subscribers of `signal` can go.
        input.releaseReceiver()
    }

    /// The current value.
    ///
    /// RAC 2.5: the property's getter and setter (`valueForKey:`, `setValue:forKey:`).
    public var value: Value {
        get {
            registrar.access(self, keyPath: valueKeyPath)
            return gate.withLock { _ in
                // From now on, writes tell Observation: a read may have been tracked.
                if !mayBeObserved { mayBeObserved = true }
                return current
            }
        }
        set { set(newValue, fromChannel: false) }
    }

    /// The terminal to bind the cell with: subscribing to it gets the current value, then every
    /// change; sending a value into it sets the cell.
    ///
    /// The channel is made the first time it is asked for (by this property, ``bind(from:)``,
    /// ``bind(to:)`` or ``bind(to:on:)``), starting with the value current then: a cell that is
    /// never bound pays nothing for it on a write.
    ///
    /// RAC 2.5: `RACChannelTo(object, keyPath)`.
    public var channel: ChannelTerminal<Value> {
        if let made = gate.withLock({ _ in binding }) { return made.followingTerminal }
        let made = Channel<Value>()
        // Listening before the channel is handed out: no value sent into it is missed.
        let listening = made.leadingTerminal.subscribe(next: { [weak self] value in self?.set(value, fromChannel: true) })
        let winner = gate.withLock { _ -> Channel<Value> in
            if let binding { return binding }
            // Started with the current value: a new channel's subject is idle, so this keeps it
            // at once, before any write can follow it through `publishLatest`.
            made.leadingTerminal.sendNext(current)
            binding = made
            bindingVersion = version
            return made
        }
        if winner !== made { listening.dispose() }
        return winner.followingTerminal
    }

    private func set(_ value: Value, fromChannel: Bool) {
        let notifier = gate.withLock { _ -> pthread_t? in
            current = value
            version += 1
            cameFromChannel = fromChannel
            guard mayBeObserved else { return nil }
            let thread = pthread_self()
            if let index = notifiers.firstIndex(where: { $0.is(thread) }) {
                // From inside `onChange`: the outer write tells of this one next.
                notifiers[index].again = true
                return nil
            }
            notifiers.append(ObservationNotifier(thread: thread))
            return thread
        }
        // Observation's `onChange` runs in `willSet`, on this thread, once the value is stored.
        // A cell whose value no one has read cannot be tracked: it skips the registrar, which
        // costs a lock and a dictionary lookup. The flag is read in the same critical section as
        // the store, so a tracked read either sees this value or set the flag before it.
        //
        // Observation calls `onChange` before it removes the registration: a write from inside
        // it, told of there, would call it again, and so on until the stack overflows. Such a
        // write is told of here, after this one, in a loop.
        if let notifier { notifyObservation(as: notifier) }
        input.run { [self] in publishLatest() }
    }

    /// Tells Observation of this thread's write, then of each it makes from inside `onChange`.
    private func notifyObservation(as notifier: pthread_t) {
        var again = true
        while again {
            registrar.willSet(self, keyPath: valueKeyPath)
            registrar.didSet(self, keyPath: valueKeyPath)
            again = gate.withLock { _ in
                // Only this thread removes its entry.
                let index = notifiers.firstIndex(where: { $0.is(notifier) })!
                if notifiers[index].again {
                    notifiers[index].again = false
                    return true
                }
                notifiers.remove(at: index)
                return false
            }
        }
    }

    /// Sends the latest value, unless it was sent already. As `input`'s deliverer, so publishing
    /// is in the order of the writes.
    private func publishLatest() {
        // No `Value?` here: in the unspecialized code, each use would look up its metadata.
        var latestVersion: UInt64 = 0
        var fromChannel = false
        var channel: Channel<Value>?
        let latest = gate.withLock { _ in
            latestVersion = version
            fromChannel = cameFromChannel
            // A channel made at this version or later started with this value already.
            if bindingVersion < version { channel = binding }
            return current
        }
        guard latestVersion != published else { return }
        published = latestVersion
        observers.receive(latest)
        guard let channel else { return }
        if fromChannel {
            channel.followingSubject.keepSilently(latest)
        } else {
            channel.leadingTerminal.sendNext(latest)
        }
    }
}

/// A thread telling Observation of a write to an ``ObservableValue``.
private struct ObservationNotifier {
    let thread: pthread_t
    /// Whether the thread wrote again from inside `onChange`, to tell Observation of next.
    var again = false

    func `is`(_ other: pthread_t) -> Bool {
        pthread_equal(thread, other) != 0
    }
}

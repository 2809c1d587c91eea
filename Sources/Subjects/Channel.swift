import Disposables
import Signals

/// A two-way binding: two terminals, each a signal and a subscriber; values sent into one arrive
/// at the other's subscribers.
///
/// The following terminal replays the latest value sent into the leading one to each new
/// subscriber; the leading terminal replays nothing. An error or completion sent into either
/// terminal reaches the subscribers of both, and ends the channel.
///
/// ```swift
/// let channel = Channel<String>()
/// channel.followingTerminal.subscribe(next: { print("model", $0) })
/// channel.leadingTerminal.sendNext("typed")   // prints "model typed"
/// ```
///
/// A channel lives while either terminal is subscribed to or held, until it ends.
///
/// RAC 2.5: `RACChannel`.
public final class Channel<Value>: Sendable {
    /// The terminal whose subscribers get the values sent into ``followingTerminal``; it replays
    /// nothing.
    ///
    /// RAC 2.5: `leadingTerminal`.
    public let leadingTerminal: ChannelTerminal<Value>
    /// The terminal whose subscribers get the values sent into ``leadingTerminal``, the latest of
    /// them at once.
    ///
    /// RAC 2.5: `followingTerminal`.
    public let followingTerminal: ChannelTerminal<Value>
    /// What the following terminal's subscribers get.
    let followingSubject: ReplaySubject<Value, any Error>

    /// A channel that has sent nothing yet.
    ///
    /// RAC 2.5: `-[RACChannel init]`.
    public init() {
        let leading = ReplaySubject<Value, any Error>(capacity: 0)
        let following = ReplaySubject<Value, any Error>(capacity: 1)
        // Terminal events cross over, so that both sides end.
        leading.ignoreValues().subscribe(following)
        following.ignoreValues().subscribe(leading)
        leadingTerminal = ChannelTerminal(values: leading, otherTerminal: following)
        followingTerminal = ChannelTerminal(values: following, otherTerminal: leading)
        followingSubject = following
    }
}

/// One end of a ``Channel``: subscribing to it gets the values sent into the other end; what is
/// sent into it goes to the other end's subscribers.
///
/// RAC 2.5: `RACChannelTerminal`.
public final class ChannelTerminal<Value>: Signal<Value, any Error>, SubscriberProtocol, @unchecked Sendable {
    private let otherTerminal: Subject<Value, any Error>

    init(values: Subject<Value, any Error>, otherTerminal: Subject<Value, any Error>) {
        self.otherTerminal = otherTerminal
        super.init(producer: { sink in values.observe(sink) })
    }

    /// Sends `value` to the other end's subscribers.
    ///
    /// RAC 2.5: `-sendNext:`.
    public func sendNext(_ value: Value) {
        otherTerminal.sendNext(value)
    }

    /// Ends the channel with `error`, on both ends.
    ///
    /// RAC 2.5: `-sendError:`.
    public func sendError(_ error: any Error) {
        otherTerminal.sendError(error)
    }

    /// Ends the channel with completion, on both ends.
    ///
    /// RAC 2.5: `-sendCompleted`.
    public func sendCompleted() {
        otherTerminal.sendCompleted()
    }

    /// Keeps `disposable`, a subscription that sends into this terminal, until it or the channel
    /// ends.
    ///
    /// RAC 2.5: `-didSubscribeWithDisposable:`.
    public func didSubscribe(with disposable: CompoundDisposable) {
        otherTerminal.didSubscribe(with: disposable)
    }
}

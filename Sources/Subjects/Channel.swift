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
/// A channel lives while either terminal is held (a subscription that sends into a terminal
/// holds it), until it ends. Once neither is, its subscribers are let go of, as a subject's are.
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
        let crossings = CompoundDisposable()
        crossings.add(leading.ignoreValues().subscribe(following))
        crossings.add(following.ignoreValues().subscribe(leading))
        let link = ChannelLink(crossings)
        leadingTerminal = ChannelTerminal(values: leading, otherTerminal: following, link: link)
        followingTerminal = ChannelTerminal(values: following, otherTerminal: leading, link: link)
        followingSubject = following
    }
}

/// What both terminals of a channel hold: once neither can be reached, nothing can send into the
/// channel any more, so the two subjects stop crossing their terminal events over. They subscribe
/// to each other for that, and would otherwise keep each other, and their subscribers, alive.
final class ChannelLink: Sendable {
    private let crossings: CompoundDisposable

    init(_ crossings: CompoundDisposable) {
        self.crossings = crossings
    }

    deinit {
        crossings.dispose()
    }
}

/// One end of a ``Channel``: subscribing to it gets the values sent into the other end; what is
/// sent into it goes to the other end's subscribers.
///
/// RAC 2.5: `RACChannelTerminal`.
public final class ChannelTerminal<Value>: Signal<Value, any Error>, SubscriberProtocol, @unchecked Sendable {
    private let otherTerminal: Subject<Value, any Error>
    private let link: ChannelLink

    init(values: Subject<Value, any Error>, otherTerminal: Subject<Value, any Error>, link: ChannelLink) {
        self.otherTerminal = otherTerminal
        self.link = link
        super.init(producer: { sink in values.attachSink(sink) })
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

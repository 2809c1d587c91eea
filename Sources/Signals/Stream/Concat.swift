import Disposables
import Synchronization

extension Signal {
    /// Sends everything this signal sends, then, once it completes, everything `next` sends.
    ///
    /// An error from either ends the result. `next` is subscribed only when this signal completes.
    /// Chains of `concat(_:)` are kept as one list, so subscribing to a chain of any length uses
    /// constant stack.
    ///
    /// RAC 2.5: `-concat:`.
    public func concat(_ next: Signal) -> Signal {
        ConcatSignal(.pair(self, next)).named(derivedName("-concat: \(next.name ?? "")"))
    }

    /// Sends everything each signal sends, one signal after the other; completes after the last.
    ///
    /// Each signal is subscribed when the one before it completes; an error ends the result.
    /// An empty sequence completes at once. A million signals that complete synchronously run in a
    /// loop, not by recursion.
    ///
    /// RAC 2.5: `+concat:`.
    public static func concat(_ signals: some Sequence<Signal>) -> Signal {
        ConcatSignal(.list(Array(signals))).named("+concat:")
    }
}

/// `concat`: a list of signals, or a pair of signals each of which may be a concat itself.
private final class ConcatSignal<Value, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
    enum Parts {
        case list([Signal<Value, Failure>])
        case pair(Signal<Value, Failure>, Signal<Value, Failure>)
    }

    /// Emptied by `deinit`, which takes nested concats apart one level at a time.
    private var parts: Parts
    /// The signals of a chain of pairs, once flattened; as plain objects, so that the lock is not
    /// generic.
    private let flattenedCache = Lock<[AnyObject]?>(nil)

    init(_ parts: Parts) {
        self.parts = parts
        super.init()
    }

    /// Releases a chain of `concat(_:)` pairs in a loop: each nested pair that only this one holds
    /// is emptied before it goes, so no deinit nests another. (A list's elements are released with
    /// the list; a nested chain among them takes itself apart the same way.)
    deinit {
        var releasing = takePair()
        while var signal = releasing.popLast() {
            guard isKnownUniquelyReferenced(&signal), let concat = signal as? ConcatSignal else { continue }
            releasing.append(contentsOf: concat.takePair())
        }
    }

    /// The two signals of a pair, moved out (so that nothing else holds them here); none for a list.
    private func takePair() -> [Signal<Value, Failure>] {
        guard case .pair = parts else { return [] }
        let pair = parts.signals
        parts = .list([])
        return pair
    }

    package override func attachSink(_ sink: Sink<Value, Failure>) -> Disposable? {
        // The signals run one after another, each on its own thread perhaps: their events meet
        // at one subscriber, which serializes them and is what disposal closes.
        // Its events go through the subscriber's delivery lock inside this subscription (the
        // signals subscribed one after another, the completion after the last): one level.
        subscribingLevel(sink) {
            let output = Subscriber(sink)
            sink.attach(output.disposable)
            ConcatRunner(signals: flattenedOnce(), output: output).advance()
            return output.disposable
        }
    }

    /// ``flattened()``, worked out by the first subscription and shared by the later ones, so
    /// that walking a long chain of nested pairs is done once. (Each subscription then keeps its
    /// own list of the signals still to come.)
    private func flattenedOnce() -> [Signal<Value, Failure>] {
        if case .list = parts { return flattened() }
        if let cached = flattenedCache.withLock({ $0 }) {
            return unsafeBitCast(cached, to: [Signal<Value, Failure>].self)
        }
        let signals = flattened()
        flattenedCache.withLock { $0 = unsafeBitCast(signals, to: [AnyObject].self) }
        return signals
    }

    /// The signals of this concat and of the concats nested in it, in order, without recursion.
    ///
    /// It works on the signals as plain objects and tells a nested concat by its exact type, so
    /// unspecialized code costs no generic lookup per signal; a list with no nested concat is
    /// returned as it is.
    private func flattened() -> [Signal<Value, Failure>] {
        let concatType = ObjectIdentifier(type(of: self))
        func isConcat(_ object: AnyObject) -> Bool { ObjectIdentifier(type(of: object)) == concatType }
        let signals = parts.signals
        let objects = unsafeBitCast(signals, to: [AnyObject].self)
        guard objects.contains(where: isConcat) else { return signals }
        var result: [AnyObject] = []
        var stack: [(objects: [AnyObject], next: Int)] = [(objects, 0)]
        while let top = stack.indices.last {
            let (objects, next) = stack[top]
            guard next < objects.count else {
                stack.removeLast()
                continue
            }
            stack[top].next = next + 1
            let object = objects[next]
            if isConcat(object) {
                let nested = unsafeDowncast(object, to: ConcatSignal.self).parts.signals
                stack.append((unsafeBitCast(nested, to: [AnyObject].self), 0))
            } else {
                result.append(object)
            }
        }
        return unsafeBitCast(result, to: [Signal<Value, Failure>].self)
    }
}

extension ConcatSignal.Parts {
    var signals: [Signal<Value, Failure>] {
        switch self {
        case let .list(signals): signals
        case let .pair(first, second): [first, second]
        }
    }
}

/// Subscribes to one signal after another, through a trampoline: what `concat`, `repeat` and
/// `retry` share.
///
/// `advance()` asks for the next subscription. The call that finds nobody looping becomes the loop
/// and subscribes until no request is left; a subscription that ends while it is being made only
/// adds a request, so a million synchronous signals take a million turns of one loop, not a
/// million nested calls. The signals' values go to `output`; subclasses decide what a terminal
/// event does.
///
/// The output's disposable holds the current subscription, not the runner: the runner lives as
/// long as a signal it subscribed to can still send to it.
class SequentialRunner<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    final let output: Subscriber<Value, Failure>
    private let requests = Atomic<Int>(0)
    private let current = SerialDisposable()

    init(output: Subscriber<Value, Failure>) {
        self.output = output
        super.init()
        output.disposable.add(current)
    }

    final func advance() {
        if requests.add(1, ordering: .acquiringAndReleasing).oldValue > 0 { return }
        repeat {
            if output.isDisposed || !subscribeNext() { return }
        } while requests.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }

    /// Subscribes this runner to the next signal and returns `true`, or ends `output` and returns
    /// `false` when there is none. Called by the loop only.
    func subscribeNext() -> Bool {
        false
    }

    package override final func attach(_ upstream: Disposable) {
        // The previous subscription has ended: replacing it needs no disposal.
        current.disposable = upstream
    }

    package override final func receive(_ value: Value) {
        output.sendNext(value)
    }
}

/// Subscribes to the signals of a concat one after the other.
///
/// It keeps only the signals still to come, not the one it is subscribed to: a hot signal (a
/// subject) among them holds this runner while it runs, and would otherwise be kept alive by it
/// after everyone else let go of it, as would everything the subscription captured. (RAC 2.5's
/// completion block likewise captures only the next signal.) That takes a list of its own, made
/// when it starts; for a very long list (more than ``ownListLimit`` signals, as a concat of a
/// million signals is) the copy would cost more than the subscriptions themselves, so it walks
/// the shared list instead, which keeps the current signal alive until the next one starts.
private final class ConcatRunner<Value, Failure: Error>: SequentialRunner<Value, Failure>, @unchecked Sendable {
    /// Up to this many signals, the runner keeps a list of its own.
    static var ownListLimit: Int { 4_096 }

    /// The signals still to come, last first, as plain objects: reading one from an array of a
    /// generic class type would cost unspecialized code a metadata lookup per signal. Touched
    /// only by the loop, which the request count makes exclusive.
    @exclusivity(unchecked) private var remaining: [AnyObject]
    /// A long list, shared with the signal and its other subscriptions, walked by `index`.
    private let shared: [AnyObject]
    @exclusivity(unchecked) private var index = 0

    init(signals: [Signal<Value, Failure>], output: Subscriber<Value, Failure>) {
        let objects = unsafeBitCast(signals, to: [AnyObject].self)
        if objects.count <= Self.ownListLimit {
            remaining = objects.reversed()
            shared = []
        } else {
            remaining = []
            shared = objects
        }
        super.init(output: output)
    }

    override func subscribeNext() -> Bool {
        let next: AnyObject
        if let last = remaining.popLast() {
            next = last
        } else if index < shared.count {
            next = shared[index]
            index += 1
        } else {
            output.sendCompleted()
            return false
        }
        _ = unsafeDowncast(next, to: Signal<Value, Failure>.self).attachSink(self)
        return true
    }

    package override func receive(error: Failure) {
        output.sendError(error)
    }

    package override func receiveCompleted() {
        advance()
    }
}

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

    let parts: Parts

    init(_ parts: Parts) {
        self.parts = parts
        super.init()
    }

    package override func observe(_ sink: Sink<Value, Failure>) -> Disposable? {
        let runner = ConcatRunner(signals: flattened(), downstream: sink)
        sink.attach(runner)
        runner.advance()
        return runner
    }

    /// The signals of this concat and of the concats nested in it, in order, without recursion.
    private func flattened() -> [Signal<Value, Failure>] {
        var result: [Signal<Value, Failure>] = []
        var stack: [Signal<Value, Failure>] = [self]
        while let signal = stack.popLast() {
            guard let concat = signal as? ConcatSignal else {
                result.append(signal)
                continue
            }
            switch concat.parts {
            case let .list(signals): stack.append(contentsOf: signals.reversed())
            case let .pair(first, second): stack.append(contentsOf: [second, first])
            }
        }
        return result
    }
}

/// Subscribes to the signals one after the other, through a trampoline.
///
/// `advance()` asks for the next signal. The call that finds nobody looping becomes the loop and
/// subscribes to signals until no request is left; a signal that completes while it is being
/// subscribed only adds a request, so a million synchronous signals take a million turns of one
/// loop, not a million nested calls. Signals run one at a time, so events never overlap and need
/// no lock on their way downstream.
private final class ConcatRunner<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let downstream: Sink<Value, Failure>
    private let signals: [Signal<Value, Failure>]
    // Touched only by the loop, which the request count makes exclusive.
    private var index = 0
    private let requests = Atomic<Int>(0)
    private let current = SerialDisposable()

    init(signals: [Signal<Value, Failure>], downstream: Sink<Value, Failure>) {
        self.signals = signals
        self.downstream = downstream
        super.init()
    }

    func advance() {
        if requests.add(1, ordering: .acquiringAndReleasing).oldValue > 0 { return }
        repeat {
            if isDisposed { return }
            guard index < signals.count else {
                if markDisposed() {
                    current.dispose()
                    downstream.receiveCompleted()
                }
                return
            }
            let signal = signals[index]
            index += 1
            _ = signal.observe(self)
        } while requests.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }

    package override func attach(_ upstream: Disposable) {
        current.disposable = upstream
    }

    package override func receive(_ value: Value) {
        downstream.receive(value)
    }

    package override func receive(error: Failure) {
        guard markDisposed() else { return }
        current.dispose()
        downstream.receive(error: error)
    }

    package override func receiveCompleted() {
        advance()
    }

    package override func dispose() {
        guard markDisposed() else { return }
        current.dispose()
    }
}

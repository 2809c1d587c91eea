import Disposables

extension Signal {
    /// The monadic bind every stream operator can be built from.
    ///
    /// For each subscription, `makeBinding` is called once to make the binding block (so it can
    /// keep per-subscription state). Each value is passed to the block, which returns a signal to
    /// subscribe to at once, or `nil`; returning `nil` or setting `stop` to `true` disposes the
    /// source subscription and ends the source side, while inner signals already running go on.
    /// The result completes when the source side and every inner signal have completed. An error
    /// from the source or an inner signal disposes everything, then is sent.
    ///
    /// ```swift
    /// // take(2), built from bind:
    /// numbers.bind {
    ///     var taken = 0
    ///     return { value, stop in
    ///         taken += 1
    ///         if taken == 2 { stop = true }
    ///         return .return(value)
    ///     }
    /// }
    /// ```
    ///
    /// RAC 2.5: `-bind:`.
    public func bind<U>(
        _ makeBinding: @escaping @Sendable () -> (Value, inout Bool) -> Signal<U, Failure>?
    ) -> Signal<U, Failure> {
        Signal<U, Failure>(producer: { downstream in
            let merge = Merge(downstream, limit: 0)
            _ = self.attachSink(BindSink(merge, makeBinding()))
            return merge.output.disposable
        }).named(derivedName("-bind:"))
    }
}

private final class BindSink<Value, U, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let merge: Merge<U, Failure>
    private let binding: (Value, inout Bool) -> Signal<U, Failure>?
    private var upstream: Disposable?
    private var isStopped = false

    init(_ merge: Merge<U, Failure>, _ binding: @escaping (Value, inout Bool) -> Signal<U, Failure>?) {
        self.merge = merge
        self.binding = binding
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        self.upstream = upstream
        merge.output.disposable.add(upstream)
    }

    package override func receive(_ value: Value) {
        if isStopped { return }
        var stop = false
        let signal = binding(value, &stop)
        if let signal { merge.add(signal) }
        if signal == nil || stop {
            isStopped = true
            if let upstream {
                merge.output.disposable.remove(upstream)
                upstream.dispose()
            }
            merge.sourceCompleted()
        }
    }

    package override func receive(error: Failure) {
        if !isStopped { merge.output.sendError(error) }
    }

    package override func receiveCompleted() {
        if !isStopped {
            isStopped = true
            merge.sourceCompleted()
        }
    }
}

import Disposables
import Synchronization

extension Signal {
    /// Pairs the n-th value of this signal with the n-th value of `other`.
    ///
    /// Completes as soon as one input has completed and none of its values wait for a partner;
    /// unmatched values of the other input are dropped. An error from either is sent at once.
    ///
    /// RAC 2.5: `-zipWith:`.
    public func zip<U>(with other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        Signal<(Value, U), Failure>.zip(self, other)
    }

    /// Combines the n-th values of all the signals into a tuple.
    ///
    /// ```swift
    /// Signal.zip(letters, numbers)   // ("a", 1), ("b", 2), …
    /// ```
    ///
    /// Completes as soon as one input has completed and none of its values wait for partners; an
    /// error from any input is sent at once.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<each V>(_ signals: repeat Signal<each V, Failure>) -> Signal<(repeat each V), Failure>
    where Value == (repeat each V) {
        var erased: [Signal<Any, Failure>] = []
        for signal in repeat each signals {
            erased.append(signal.map { $0 as Any })
        }
        return Signal<[Any], Failure>.zip(erased).map { row in
            var index = 0
            func next<T>(_: T.Type) -> T {
                defer { index += 1 }
                return row[index] as! T
            }
            return (repeat next((each V).self))
        }
    }

    /// Combines the n-th values of all the signals into an array, in the order of the signals.
    ///
    /// No signals complete at once without a value; one signal gives one-element arrays.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<V>(_ signals: some Sequence<Signal<V, Failure>>) -> Signal<[V], Failure>
    where Value == [V] {
        let signals = UncheckedSendable(Array(signals))
        return Signal(producer: { downstream in
            let zip = ZipCore<V, Failure>(downstream, inputs: signals.value.count)
            for (index, signal) in signals.value.enumerated() where !zip.output.isDisposed {
                _ = signal.observe(ZipInput(zip, index: index))
            }
            if signals.value.isEmpty { zip.output.sendCompleted() }
            return zip.output.disposable
        }).named("+zip:")
    }
}

/// What a zip holds between values: a queue of unmatched values per input.
///
/// A pure state machine: it returns the rows to send and whether to complete, and `ZipCore` does
/// the sending after unlocking.
struct ZipState<Element> {
    private var buffers: [Queue<Element>]
    private var completed: [Bool]

    init(inputs: Int) {
        buffers = Array(repeating: Queue(), count: inputs)
        completed = Array(repeating: false, count: inputs)
    }

    /// Records `value` from input `index`; returns the row it completes, if any.
    mutating func receive(_ value: Element, from index: Int) -> [Element]? {
        buffers[index].append(value)
        guard buffers.allSatisfy({ !$0.isEmpty }) else { return nil }
        return buffers.indices.map { buffers[$0].popFirst()! }
    }

    /// Records that input `index` completed.
    mutating func complete(_ index: Int) {
        completed[index] = true
    }

    /// Whether some input has completed with no value left waiting: no row can come any more.
    var isFinished: Bool {
        buffers.indices.contains { completed[$0] && buffers[$0].isEmpty }
    }
}

final class ZipCore<Element, Failure: Error>: @unchecked Sendable {
    let output: Subscriber<[Element], Failure>
    private let state: Lock<State>
    /// Requests to send what is in the outbox; the caller that raises it from zero sends.
    private let sendRequests = Atomic<Int>(0)

    private struct State {
        var zip: ZipState<Element>
        var outbox = Queue<[Element]>()
        var isFinished = false
    }

    init(_ downstream: Sink<[Element], Failure>, inputs: Int) {
        output = Subscriber(downstream)
        state = Lock(State(zip: ZipState(inputs: inputs)))
        downstream.attach(output.disposable)
    }

    func receive(_ value: Element, from index: Int) {
        state.withLock { state in
            if let row = state.zip.receive(value, from: index) { state.outbox.append(row) }
            if state.zip.isFinished { state.isFinished = true }
        }
        flush()
    }

    func complete(_ index: Int) {
        state.withLock { state in
            state.zip.complete(index)
            if state.zip.isFinished { state.isFinished = true }
        }
        flush()
    }

    /// Sends the rows in the order they were made, then completion if it is due; one thread at a
    /// time does it, so rows made on different threads never overtake each other.
    private func flush() {
        if sendRequests.add(1, ordering: .acquiringAndReleasing).oldValue > 0 { return }
        repeat {
            while true {
                let (row, finish) = state.withLock { state in
                    (state.outbox.popFirst(), state.outbox.isEmpty && state.isFinished)
                }
                if let row { output.sendNext(row) }
                if finish { output.sendCompleted() }
                if row == nil { break }
            }
        } while sendRequests.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }
}

/// The sink of one input of a zip.
private final class ZipInput<Element, Failure: Error>: Sink<Element, Failure>, @unchecked Sendable {
    private let zip: ZipCore<Element, Failure>
    private let index: Int

    init(_ zip: ZipCore<Element, Failure>, index: Int) {
        self.zip = zip
        self.index = index
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        zip.output.disposable.add(upstream)
    }

    package override func receive(_ value: Element) {
        zip.receive(value, from: index)
    }

    package override func receive(error: Failure) {
        zip.output.sendError(error)
    }

    package override func receiveCompleted() {
        zip.complete(index)
    }
}

import Signals

/// The hot paths that start at a pipe: one input out to many subscribers, and two inputs into one
/// (`signal.combineLatest` and `signal.with-latest-from` count sends, `signal.zip` pairs,
/// `signal.buffer-count` values).
func pipeScenarios() -> [Scenario] { [
    fanoutScenario(name: "signal.pipe-fanout") {
        let (signal, input) = Signal<Int, Never>.pipe()
        return (signal, input.sendNext)
    },
    Scenario(
        name: "signal.zip",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let (left, leftInput) = Signal<Int, Never>.pipe()
            let (right, rightInput) = Signal<Int, Never>.pipe()
            Signal.zip(left, right).subscribe(next: { pair in sink.value &+= pair.0 &+ pair.1 })
            return {
                for value in 0..<count {
                    leftInput.sendNext(value)
                    rightInput.sendNext(value)
                }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let zip = BaselineZip(opaque { sink.value &+= $0 &+ $1 })
            let sendLeft: (Int) -> Void = opaque { zip.left($0) }
            let sendRight: (Int) -> Void = opaque { zip.right($0) }
            return {
                for value in 0..<count {
                    sendLeft(value)
                    sendRight(value)
                }
            }
        }
    ),
    Scenario(
        name: "signal.combineLatest",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let (left, leftInput) = Signal<Int, Never>.pipe()
            let (right, rightInput) = Signal<Int, Never>.pipe()
            Signal.combineLatest(left, right).subscribe(next: { pair in sink.value &+= pair.0 &+ pair.1 })
            return {
                for value in 0..<count / 2 {
                    leftInput.sendNext(value)
                    rightInput.sendNext(value)
                }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let combine = BaselineCombineLatest(opaque { sink.value &+= $0 &+ $1 })
            let sendLeft: (Int) -> Void = opaque { combine.left($0) }
            let sendRight: (Int) -> Void = opaque { combine.right($0) }
            return {
                for value in 0..<count / 2 {
                    sendLeft(value)
                    sendRight(value)
                }
            }
        }
    ),
    Scenario(
        name: "signal.with-latest-from",
        operations: 1_000_000,
        prepareOurs: { count in
            // Mostly on the source, as an app's taps with a form's latest text: one send on other
            // for every nine on the source, so nine in ten sends go out as a pair.
            let sink = Sink()
            let (source, sourceInput) = Signal<Int, Never>.pipe()
            let (other, otherInput) = Signal<Int, Never>.pipe()
            source.withLatestFrom(other).subscribe(next: { pair in sink.value &+= pair.0 &+ pair.1 })
            return {
                for value in 0..<count {
                    if value % 10 == 0 { otherInput.sendNext(value) } else { sourceInput.sendNext(value) }
                }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let latest = BaselineWithLatestFrom(opaque { sink.value &+= $0 &+ $1 })
            let sendSource: (Int) -> Void = opaque { latest.source($0) }
            let sendOther: (Int) -> Void = opaque { latest.other($0) }
            return {
                for value in 0..<count {
                    if value % 10 == 0 { sendOther(value) } else { sendSource(value) }
                }
            }
        }
    ),
    Scenario(
        name: "signal.buffer-count",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let (source, input) = Signal<Int, Never>.pipe()
            source.buffer(count: 10).subscribe(next: { sink.value &+= $0.count })
            return {
                for value in 0..<count { input.sendNext(value) }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let buffer = BaselineCountBuffer(count: 10, opaque { sink.value &+= $0.count })
            let send: (Int) -> Void = opaque { buffer.send($0) }
            return {
                for value in 0..<count { send(value) }
            }
        }
    ),
] }

/// The baseline's withLatestFrom: other's latest `Int?`, and the sink called with the pair when
/// the source sends once it is set.
private final class BaselineWithLatestFrom {
    @exclusivity(unchecked) private var latest: Int?
    private let sink: (Int, Int) -> Void

    init(_ sink: @escaping (Int, Int) -> Void) {
        self.sink = sink
    }

    func source(_ value: Int) {
        if let latest { sink(value, latest) }
    }

    func other(_ value: Int) {
        latest = value
    }
}

/// The baseline's count buffer: an `[Int]` with its capacity reserved, handed to the sink at each
/// `count` values and emptied keeping its storage.
private final class BaselineCountBuffer {
    @exclusivity(unchecked) private var values: [Int] = []
    private let count: Int
    private let sink: ([Int]) -> Void

    init(count: Int, _ sink: @escaping ([Int]) -> Void) {
        self.count = count
        self.sink = sink
        values.reserveCapacity(count)
    }

    func send(_ value: Int) {
        values.append(value)
        if values.count == count {
            sink(values)
            values.removeAll(keepingCapacity: true)
        }
    }
}

/// The baseline's combineLatest: the latest `Int?` of each side, calling the sink once both are set.
private final class BaselineCombineLatest {
    @exclusivity(unchecked) private var latestLeft: Int?
    @exclusivity(unchecked) private var latestRight: Int?
    private let sink: (Int, Int) -> Void

    init(_ sink: @escaping (Int, Int) -> Void) {
        self.sink = sink
    }

    func left(_ value: Int) {
        latestLeft = value
        if let latestRight { sink(value, latestRight) }
    }

    func right(_ value: Int) {
        latestRight = value
        if let latestLeft { sink(latestLeft, value) }
    }
}

/// How many subscribers a fan-out scenario has; its operations count deliveries.
private let fanout = 100

/// One hot signal out to `fanout` subscribers, `count / fanout` sends through `makeHotSignal`'s
/// send, beside an array of `fanout` opaque closures each called per value.
func fanoutScenario(name: String, makeHotSignal: @escaping () -> (Signal<Int, Never>, (Int) -> Void)) -> Scenario {
    Scenario(
        name: name,
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let (signal, send) = makeHotSignal()
            for _ in 0..<fanout { signal.subscribe(next: { sink.value &+= $0 }) }
            let sends = max(1, count / fanout)
            return {
                for value in 0..<sends { send(value) }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let subscribers: [(Int) -> Void] = (0..<fanout).map { _ in opaque { sink.value &+= $0 } }
            let sends = max(1, count / fanout)
            return {
                for value in 0..<sends {
                    for subscriber in subscribers { subscriber(value) }
                }
            }
        }
    )
}

/// The baseline's zip: a FIFO buffer of `Int` per side (storage reused once drained), calling
/// the sink per pair. Its state needs no exclusivity checks, as the library's hot state does not.
private final class BaselineZip {
    @exclusivity(unchecked) private var left = Buffer()
    @exclusivity(unchecked) private var right = Buffer()
    private let sink: (Int, Int) -> Void

    init(_ sink: @escaping (Int, Int) -> Void) {
        self.sink = sink
    }

    func left(_ value: Int) {
        left.append(value)
        emit()
    }

    func right(_ value: Int) {
        right.append(value)
        emit()
    }

    private func emit() {
        while !left.isEmpty, !right.isEmpty {
            sink(left.popFirst(), right.popFirst())
        }
    }

    private struct Buffer {
        private var storage: [Int] = []
        private var head = 0
        private var count = 0

        var isEmpty: Bool { head == count }

        mutating func append(_ value: Int) {
            if count < storage.count { storage[count] = value } else { storage.append(value) }
            count += 1
        }

        mutating func popFirst() -> Int {
            defer {
                head += 1
                if head == count { head = 0; count = 0 }
            }
            return storage[head]
        }
    }
}

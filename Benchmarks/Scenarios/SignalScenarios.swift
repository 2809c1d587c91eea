import Disposables
import Signals

/// A synchronous signal of `0..<count`.
private func numbers(_ count: Int) -> Signal<Int, Never> {
    Signal { subscriber in
        for value in 0..<count { subscriber.sendNext(value) }
        subscriber.sendCompleted()
        return nil
    }
}

/// What the baselines' sources are: a function that pushes values into a sink.
private typealias Source = (_ sink: (Int) -> Void) -> Void

func signalScenarios() -> [Scenario] { [
    Scenario(
        name: "signal.chain",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let chain = numbers(count).map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.map { $0 * 2 }
            return { chain.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let increment: (Int) -> Int = opaque { $0 + 1 }
            let isEven: (Int) -> Bool = opaque { $0.isMultiple(of: 2) }
            let double: (Int) -> Int = opaque { $0 * 2 }
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            return {
                for value in 0..<count {
                    let next = increment(value)
                    if isEven(next) { add(double(next)) }
                }
            }
        }
    ),
    Scenario(
        name: "signal.compact-map",
        operations: 1_000_000,
        prepareOurs: { count in
            // signal.chain's work with its filter and second map done by one compactMap.
            let sink = Sink()
            let chain = numbers(count).map { $0 + 1 }.compactMap { $0.isMultiple(of: 2) ? $0 * 2 : nil }
            return { chain.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let increment: (Int) -> Int = opaque { $0 + 1 }
            let doubleEven: (Int) -> Int? = opaque { $0.isMultiple(of: 2) ? $0 * 2 : nil }
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            return {
                for value in 0..<count {
                    if let transformed = doubleEven(increment(value)) { add(transformed) }
                }
            }
        }
    ),
    Scenario(
        name: "signal.bind",
        operations: 100_000,
        prepareOurs: { count in
            let sink = Sink()
            let bound = numbers(count).flattenMap { Signal.return($0) }
            return { bound.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            return {
                for value in 0..<count {
                    let inner: Source = opaque { sink in sink(value) }
                    inner(add)
                }
            }
        }
    ),
    Scenario(
        name: "signal.flatten",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let innerCount = max(1, count / 1_000)
            let inner = numbers(1_000)
            let outer = Signal<Signal<Int, Never>, Never> { subscriber in
                for _ in 0..<innerCount { subscriber.sendNext(inner) }
                subscriber.sendCompleted()
                return nil
            }
            let merged = outer.flatten()
            return { merged.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let innerCount = max(1, count / 1_000)
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            let inner: Source = opaque { sink in
                for value in 0..<1_000 { sink(value) }
            }
            return {
                for _ in 0..<innerCount { inner(add) }
            }
        }
    ),
    Scenario(
        name: "signal.concat-deep",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let signals = (0..<count).map { Signal<Int, Never>.return($0) }
            return { Signal.concat(signals).subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            let sources: [Source] = (0..<count).map { value in opaque { sink in sink(value) } }
            return {
                for source in sources { source(add) }
            }
        }
    ),
    Scenario(
        name: "signal.repeat",
        operations: 1_000_000,
        ours: { count in
            let sink = Sink()
            Signal<Int, Never>.return(1).repeat().take(count).subscribe(next: { sink.value &+= $0 })
            precondition(sink.value == count, "signal.repeat ran asynchronously")
        },
        baseline: { count in
            // Per repetition, a fresh subscription object holding the value closure, as churn's.
            let sink = Sink()
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            let source: Source = opaque { sink in sink(1) }
            for _ in 0..<count {
                let subscription = ChurnSubscription(add)
                source { subscription.next?($0) }
                subscription.next = nil
            }
            precondition(sink.value == count)
        }
    ),
    Scenario(
        name: "signal.switch",
        operations: 100_000,
        prepareOurs: { count in
            let sink = Sink()
            let switched = numbers(count).map { Signal<Int, Never>.return($0) }.switchToLatest()
            return { switched.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: switchBaseline
    ),
    Scenario(
        name: "signal.flat-map-latest",
        operations: 100_000,
        prepareOurs: { count in
            // signal.switch's work through one flatMapLatest.
            let sink = Sink()
            let switched = numbers(count).flatMapLatest { Signal<Int, Never>.return($0) }
            return { switched.subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: switchBaseline
    ),
    Scenario(
        name: "signal.churn",
        operations: 100_000,
        prepareOurs: { count in
            let sink = Sink()
            let signal = Signal<Int, Never>.return(1)
            return {
                for _ in 0..<count {
                    signal.subscribe(next: { sink.value &+= $0 }).dispose()
                }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            return {
                for _ in 0..<count {
                    let subscription = ChurnSubscription(opaque { sink.value &+= $0 })
                    subscription.next?(1)
                    subscription.next = nil
                }
            }
        }
    ),
] }

/// The baseline's subscription object: it holds the value closure until cleared.
private final class ChurnSubscription {
    var next: ((Int) -> Void)?

    init(_ next: @escaping (Int) -> Void) {
        self.next = next
    }
}

/// The baseline of `signal.switch` and `signal.flat-map-latest`: per value, a fresh source closure
/// and a generation counter guarding the inner sink.
private func switchBaseline(_ count: Int) -> () -> Void {
    let sink = Sink()
    let generation = Sink()
    let add: (Int) -> Void = opaque { sink.value &+= $0 }
    return {
        for value in 0..<count {
            generation.value += 1
            let current = generation.value
            let inner: Source = opaque { sink in sink(value) }
            inner { if generation.value == current { add($0) } }
        }
    }
}

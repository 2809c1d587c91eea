import Signals
import Subjects
import Synchronization

/// The read-only views of the Subjects module: a `Property` derived from a cell, followed as the
/// cell changes.
func propertyScenarios() -> [Scenario] { [
    Scenario(
        name: "property.map",
        operations: 1_000_000,
        prepareOurs: prepareMappedProperty,
        prepareBaseline: prepareBaselineMappedCell
    ),
] }

/// `Property(cell).map { $0 * 2 }`, followed by a subscriber, and the cell set `count` times.
private func prepareMappedProperty(_ count: Int) -> () -> Void {
    let sink = Sink()
    let cell = ObservableValue(0)
    let doubled: Property<Int> = Property(cell).map { $0 * 2 }
    let subscription = doubled.signal.subscribe(next: { sink.value &+= $0 })
    return {
        for value in 0..<count { cell.value = value }
        subscription.dispose()
    }
}

/// The baseline: a `BaselineCell` whose observer maps each value through an opaque closure on
/// the way to the subscriber's closure, and the cell set `count` times.
private func prepareBaselineMappedCell(_ count: Int) -> () -> Void {
    let sink = Sink()
    let cell = BaselineCell(0)
    let double: (Int) -> Int = opaque { $0 * 2 }
    let add: (Int) -> Void = opaque { sink.value &+= $0 }
    cell.observe(opaque { add(double($0)) })
    return {
        for value in 0..<count { cell.set(value) }
    }
}

/// A hand-written observable cell: a value under a `Mutex` and the closures that observe it,
/// called in turn, outside the lock, with each new value.
private final class BaselineCell: Sendable {
    private let state: Mutex<(value: Int, observers: Observers)>

    init(_ value: Int) {
        state = Mutex((value, Observers()))
    }

    func observe(_ observer: @escaping (Int) -> Void) {
        state.withLock { $0.observers.list.append(observer) }
    }

    func set(_ value: Int) {
        let observers = state.withLock { state in
            state.value = value
            return state.observers
        }
        for observer in observers.list { observer(value) }
    }
}

/// A `BaselineCell`'s observers, which the benchmark calls on one thread only.
private struct Observers: @unchecked Sendable {
    var list: [(Int) -> Void] = []
}

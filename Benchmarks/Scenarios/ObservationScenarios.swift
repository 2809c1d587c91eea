import Disposables
import Foundation
import Observation
import Schedulers
import Signals
import Subjects

/// The `@Observable` model both sides change.
@Observable
final class Counter: @unchecked Sendable {
    var value = 0
}

/// A scheduler whose blocks run when the benchmark drains it, on the benchmark's thread: the
/// one-thread stand-in for the main run loop, so that the scenario measures the library, not a
/// queue hop.
final class DrainedScheduler: Scheduler, @unchecked Sendable {
    private var blocks: [@Sendable () -> Void] = []

    init() {
        super.init(name: "drained")
    }

    override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        blocks.append(action)
        return nil
    }

    func drain() {
        while !blocks.isEmpty {
            let due = blocks
            blocks.removeAll(keepingCapacity: true)
            for block in due { block() }
        }
    }
}

func observationScenarios() -> [Scenario] { [
    Scenario(
        name: "observation.changes",
        operations: 100_000,
        prepareOurs: { count in
            let sink = Sink()
            let counter = Counter()
            let scheduler = DrainedScheduler()
            let values = counter.signal(for: \.value, on: scheduler)
            return {
                let subscription = values.subscribe(next: { sink.value &+= $0 })
                scheduler.drain()
                for value in 1...count {
                    counter.value = value
                    scheduler.drain()
                }
                subscription.dispose()
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let counter = Counter()
            let tracker = HandWrittenTracker(counter, opaque { sink.value &+= $0 })
            return {
                tracker.track()
                tracker.drain()
                for value in 1...count {
                    counter.value = value
                    tracker.drain()
                }
            }
        }
    ),
] }

/// The baseline of `observation.changes`: `withObservationTracking` by hand. Each change queues a
/// re-read, which reads the value, hands it on and tracks again.
private final class HandWrittenTracker: @unchecked Sendable {
    private let counter: Counter
    private let add: (Int) -> Void
    private var rereads: [() -> Void] = []

    init(_ counter: Counter, _ add: @escaping (Int) -> Void) {
        self.counter = counter
        self.add = add
    }

    func track() {
        let value = withObservationTracking { counter.value } onChange: { [self] in
            rereads.append { [self] in track() }
        }
        add(value)
    }

    func drain() {
        while let reread = rereads.popLast() { reread() }
    }
}

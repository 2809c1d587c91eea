import Signals
import Subjects

/// Reentrant sends at scale: a subscriber of a `Subject` that, given the first value, sends
/// `count` more into the subject from inside that callback (ns per reentrant send), at 10,000 and
/// at 100,000. The two rows' ns/op side by side show the cost linear in the burst: a queue whose
/// cost per send grew with its length would make the larger burst's ns/op ten times the smaller
/// one's.
func reentrantScenarios() -> [Scenario] {
    [10_000, 100_000].map { size in reentrantSend(name: "reentrant.send-\(size / 1_000)k", operations: size) }
}

/// The baseline: a subject written by hand, whose send during a delivery queues the value as a
/// freshly made closure (the library queues each waiting event as one) and whose delivering send
/// then runs the queue in a loop.
private func reentrantSend(name: String, operations: Int) -> Scenario {
    Scenario(
        name: name,
        operations: operations,
        prepareOurs: { count in
            let sink = Sink()
            let subject = Subject<Int, Never>()
            subject.subscribe(next: { value in
                sink.value &+= value
                if value == -1 {
                    for next in 0..<count { subject.sendNext(next) }
                }
            })
            return {
                subject.sendNext(-1)
                // The subscriber holds the subject: end it, so that the two can go.
                subject.sendCompleted()
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let subject = BaselineReentrantSubject()
            subject.subscriber = opaque { [unowned subject] value in
                sink.value &+= value
                if value == -1 {
                    for next in 0..<count { subject.send(next) }
                }
            }
            return {
                subject.send(-1)
                subject.subscriber = { _ in }
            }
        }
    )
}

/// A single-threaded subject: one subscriber, reentrant sends queued as closures and delivered in
/// order after the current one.
private final class BaselineReentrantSubject {
    var subscriber: (Int) -> Void = { _ in }
    private var queue: [() -> Void] = []
    private var isDelivering = false

    func send(_ value: Int) {
        if isDelivering {
            queue.append(opaque { [unowned self] in subscriber(value) })
            return
        }
        isDelivering = true
        subscriber(value)
        var next = 0
        while next < queue.count {
            queue[next]()
            next += 1
        }
        queue.removeAll(keepingCapacity: true)
        isDelivering = false
    }
}

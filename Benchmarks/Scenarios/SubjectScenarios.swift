import Disposables
import Signals
import Subjects

/// The hot signals of the Subjects module: one subject out to many subscribers, a replay to late
/// subscribers, and subscribe/dispose cycles on an autoconnecting multicast.
func subjectScenarios() -> [Scenario] { [
    fanoutScenario(name: "subject.fanout") {
        let subject = Subject<Int, Never>()
        return (subject, subject.sendNext)
    },
    Scenario(
        name: "subject.replay",
        operations: 1_000_000,
        ours: { count in
            let sink = Sink()
            let subject = ReplaySubject<Int, Never>()
            for value in 0..<max(1, count / lateSubscribers) { subject.sendNext(value) }
            for _ in 0..<lateSubscribers { subject.subscribe(next: { sink.value &+= $0 }) }
        },
        baseline: { count in
            let sink = Sink()
            let append: (inout [Int], Int) -> Void = opaque { $0.append($1) }
            var buffer: [Int] = []
            for value in 0..<max(1, count / lateSubscribers) { append(&buffer, value) }
            for _ in 0..<lateSubscribers {
                let subscriber: (Int) -> Void = opaque { sink.value &+= $0 }
                for value in buffer { subscriber(value) }
            }
        }
    ),
    Scenario(
        name: "multicast.autoconnect",
        operations: 100_000,
        prepareOurs: { count in
            let shared = Signal<Int, Never>.never.publish().autoconnect()
            return {
                for _ in 0..<count { shared.subscribe(next: { _ in }).dispose() }
            }
        },
        prepareBaseline: { count in
            let list = BaselineSubscriberList(connect: opaque { BaselineSourceSubscription() })
            return {
                for _ in 0..<count { list.remove(list.add()) }
            }
        }
    ),
] }

/// How many late subscribers `subject.replay` replays to; its operations count replayed values.
private let lateSubscribers = 10

/// The baseline's source subscription: an object that stands for the connection.
private final class BaselineSourceSubscription {}

/// The baseline's autoconnect: a list of subscription objects; the first subscription calls
/// `connect`, and removing the last releases what it returned.
private final class BaselineSubscriberList {
    private final class Subscription {}

    private var subscriptions: [Subscription] = []
    private var connection: BaselineSourceSubscription?
    private let connect: () -> BaselineSourceSubscription

    init(connect: @escaping () -> BaselineSourceSubscription) {
        self.connect = connect
    }

    func add() -> AnyObject {
        let subscription = Subscription()
        subscriptions.append(subscription)
        if subscriptions.count == 1, connection == nil { connection = connect() }
        return subscription
    }

    func remove(_ subscription: AnyObject) {
        if let index = subscriptions.firstIndex(where: { $0 === subscription }) { subscriptions.remove(at: index) }
        if subscriptions.isEmpty { connection = nil }
    }
}

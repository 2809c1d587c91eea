import Signals
import Synchronization

/// One round of sends racing a subscription's disposal, on 8 threads: threads 0-5 each send
/// ``valuesPerSender`` values (numbered as ``CallbackProbe`` numbers them) to the input under
/// test, and the round's ``Ending`` adds terminal events halfway; threads 6 and 7 each dispose
/// the subscription under test once the probe has seen a number of events that varies with the
/// round (or once every sender is done), then tell the probe that `dispose()` has returned.
public enum SendsRacingDispose {
    /// The sending threads, 0 to 5.
    public static let senders = 6
    /// How many values each sender sends; a terminal event goes after the first half.
    public static let valuesPerSender = 16

    /// The terminal events of a round, sent halfway through their senders' values.
    public enum Ending: CaseIterable, Sendable {
        /// No terminal event.
        case none
        /// Sender 0 sends `completed`.
        case completed
        /// Sender 0 sends `error(.first)`.
        case error
        /// Sender 0 sends `completed` while sender 1 sends `error(.second)`.
        case completedRacingError

        /// The ending of round `round`: each ending in turn, in runs of `runs` rounds.
        public static func of(round: Int, runs: Int) -> Ending {
            allCases[(round / runs) % allCases.count]
        }

        /// The terminal events it may end with.
        public var terminals: [Event<Int, TestError>] {
            switch self {
            case .none: []
            case .completed: [.completed]
            case .error: [.error(.first)]
            case .completedRacingError: [.completed, .error(.second)]
            }
        }
    }

    /// Runs one round: `send` sends an event to the input under test, `dispose` disposes the
    /// subscription that `probe` records.
    public static func run(
        round: Int,
        ending: Ending,
        probe: CallbackProbe,
        send: @escaping @Sendable (Event<Int, TestError>) -> Void,
        dispose: @escaping @Sendable () -> Void
    ) {
        let sendersDone = Atomic<Int>(0)
        // Each disposer waits for its own number of events, 0 to 28 and 0 to 35, or for the end.
        let thresholds = [round % 8 * 4, round / 8 % 6 * 7]
        race(threads: senders + 2) { index in
            guard index < senders else {
                let threshold = thresholds[index - senders]
                pollWithoutRunningTheMainQueue {
                    probe.count >= threshold || sendersDone.load(ordering: .acquiring) == senders
                }
                dispose()
                probe.disposeHasReturned()
                return
            }
            for value in 0..<valuesPerSender {
                if value == valuesPerSender / 2 {
                    switch (ending, index) {
                    case (.completed, 0), (.completedRacingError, 0): send(.completed)
                    case (.error, 0): send(.error(.first))
                    case (.completedRacingError, 1): send(.error(.second))
                    default: break
                    }
                }
                send(.next(CallbackProbe.value(sender: index, index: value)))
            }
            sendersDone.add(1, ordering: .releasing)
        }
    }

    /// What a subscription that was not disposed got wrong in a round that ended with `ending`,
    /// in words; empty when nothing.
    ///
    /// Every send returns once its event is delivered (or queued before a later send's), so such
    /// a subscription gets each sender's values up to the terminal event: with no terminal event,
    /// all of them; with one sent by sender 0 alone, sender 0's first half exactly; and the
    /// terminal event, once, last.
    public static func violationsOfAKeptSubscription(_ probe: CallbackProbe, ending: Ending) -> [String] {
        var problems = probe.violations()
        let values = probe.values
        let terminal = probe.terminal
        switch ending {
        case .none:
            let all = (0..<senders).flatMap { sender in
                (0..<valuesPerSender).map { CallbackProbe.value(sender: sender, index: $0) }
            }
            if values.sorted() != all { problems.append("not every value was delivered: \(values)") }
            if let terminal { problems.append("a terminal event nobody sent: \(terminal)") }
        case .completed, .error, .completedRacingError:
            if terminal == nil || !ending.terminals.contains(terminal!) {
                problems.append("ended with \(String(describing: terminal)), not one of \(ending.terminals)")
            }
            if ending != .completedRacingError {
                let first = values.filter { CallbackProbe.sender(of: $0) == 0 }
                if first != Array(0..<valuesPerSender / 2) {
                    problems.append("sender 0's values before its terminal event were \(first)")
                }
            }
        }
        return problems
    }

    /// One round of a hot source with two subscriptions, one disposed while six threads send
    /// (``run(round:ending:probe:send:dispose:)``) and one kept: half the rounds, the one disposed
    /// was subscribed second. Then `complete` sends a completion. Returns what went wrong, in
    /// words, each naming the round: empty when nothing did.
    ///
    /// The subscription disposed keeps the grammar and gets a prefix of what the kept one gets
    /// (every event reaches the subscribers in the same order); the kept one gets what
    /// ``violationsOfAKeptSubscription(_:ending:)`` allows, and the completion when the round sent
    /// no terminal event.
    public static func runWithAKeptSubscription(
        round: Int,
        to source: Signal<Int, TestError>,
        send: @escaping @Sendable (Event<Int, TestError>) -> Void,
        complete: () -> Void
    ) -> [String] {
        let kind = SubscriptionKind.of(round: round, runs: 4)
        let ending = Ending.of(round: round, runs: 1)
        let disposed = CallbackProbe()
        let kept = CallbackProbe()
        let keptFirst = round / 16 % 2 == 1
        if keptFirst { _ = kept.subscribe(to: source) }
        let subscription = disposed.subscribe(to: source, as: kind)
        if !keptFirst { _ = kept.subscribe(to: source) }
        run(round: round, ending: ending, probe: disposed, send: send, dispose: subscription.dispose)
        var problems = disposed.violations().map { "the subscription disposed: \($0)" }
        problems += violationsOfAKeptSubscription(kept, ending: ending).map { "the subscription kept: \($0)" }
        let events = disposed.events
        if Array(kept.events.prefix(events.count)) != events {
            problems.append("what the subscription disposed got is not a prefix of what the kept one got")
        }
        if !subscription.isDisposed { problems.append("the subscription disposed says it is not disposed") }
        complete()
        if ending == .none, kept.terminal != .completed {
            problems.append("the subscription kept ended with \(String(describing: kept.terminal)), not the completion sent")
        }
        let label = "round \(round), \(kind), \(ending)\(keptFirst ? ", subscribed second" : "")"
        return problems.map { "\(label): \($0)" }
    }
}

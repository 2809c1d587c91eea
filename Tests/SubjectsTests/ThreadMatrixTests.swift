import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// The thread matrix for the Subjects module: every subject kind, multicast form, channel
/// and `ObservableValue`, subscribed from every thread context, over a synchronous and a hot
/// source, then disposed from another thread, disposed inside its own callback, and let go of
/// (see `ThreadMatrix` for what each round checks).
///
/// The synchronous source sends 1, 2, 3 and completes from its create block; the hot source is a
/// pipe into which the context sends 1, 2, 3 after subscribing, and which never ends.
///
/// A subject "fed at once" is subscribed to the source when the row makes it, before the
/// subscriber subscribes: where no scheduler is current, the synchronous source then sends on a
/// background scheduler while the subscriber joins, so what a subject of limited capacity replays
/// depends on timing. Those rows feed the subject "synchronously" (with a scheduler current, so
/// the source has sent everything before the subscriber joins). "Subscribed first" means the
/// subscriber joins before the source is subscribed (a relay made in a created signal's block).
final class ThreadMatrixTests: LeakCheckedTestCase {
    func testSubjects() {
        assertMatrix([
            row("Subject, subscribed first", { source in relay(through: Subject(), from: source) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // Where no scheduler is current, the source sends on a background scheduler while the
            // subscriber joins: how much it sees depends on timing (all of it, or only the end).
            row("Subject, fed at once", { source in fed(Subject(), from: source) },
                sync: nil, hot: [.next(1), .next(2), .next(3)]),
            row("ReplaySubject, fed at once", { source in fed(ReplaySubject(), from: source) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("ReplaySubject(capacity: 1), fed synchronously", { source in synchronously { fed(ReplaySubject(capacity: 1), from: source) } },
                sync: [.next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("ReplaySubject(capacity: 0), fed synchronously", { source in synchronously { fed(ReplaySubject(capacity: 0), from: source) } },
                sync: [.completed], hot: [.next(1), .next(2), .next(3)]),
            row("BehaviorSubject, subscribed first", { source in relay(through: BehaviorSubject(value: 0), from: source) },
                sync: [.next(0), .next(1), .next(2), .next(3), .completed], hot: [.next(0), .next(1), .next(2), .next(3)]),
            // As for the subject fed at once: what a late subscriber sees depends on timing.
            row("BehaviorSubject, fed at once", { source in fed(BehaviorSubject(value: 0), from: source) },
                sync: nil, hot: [.next(0), .next(1), .next(2), .next(3)]),
            row("group(by:)", { $0.group(by: { $0 % 2 }).flattenMap { group -> Signal<Int, TestError> in
                let key = group.key   // capturing the group in its own subscriber would keep it alive
                return group.map { key * 10 + $0 }
            } },
                sync: [.next(11), .next(2), .next(13), .completed], hot: [.next(11), .next(2), .next(13)]),
            row("group(by:transform:)", { $0.group(by: { $0 % 2 }, transform: { $0 * 100 }).flattenMap { $0.map { $0 } } },
                sync: [.next(100), .next(200), .next(300), .completed], hot: [.next(100), .next(200), .next(300)]),
        ])
    }

    func testMulticastConnections() {
        assertMatrix([
            row("publish, subscribed then connected", { source in
                let connection = source.publish()
                return Signal { subscriber in
                    CompoundDisposable([connection.signal.subscribe(subscriber), connection.connect()])
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("multicast(ReplaySubject(capacity: 1)), connected synchronously", { source in
                let connection = source.multicast(ReplaySubject(capacity: 1))
                synchronously { _ = connection.connect() }
                return connection.signal
            }, sync: [.next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("publish().autoconnect()", { $0.publish().autoconnect() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("share()", { $0.share() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // share()'s connection with a ReplaySubject, whose rows above run its replay through
            // the full count: light rounds.
            row("share(replay: 1)", { $0.share(replay: 1) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)])
                .inRounds(ThreadMatrix.lightRounds),
            row("replay", { $0.replay() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("replayLast, connected synchronously", { source in synchronously { source.replayLast() } },
                sync: [.next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("replayLazily", { $0.replayLazily() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
        ])
    }

    func testChannelsAndObservableValues() {
        assertMatrix([
            row("Channel, fed synchronously at the leading terminal, subscribed at the following one", { source in
                let channel = Channel<Int>()
                synchronously { _ = source.mapError { $0 as any Error }.subscribe(channel.leadingTerminal) }
                return channel.followingTerminal.mapError { _ in TestError.first }
            }, sync: [.next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("Channel, fed synchronously at the following terminal, subscribed at the leading one", { source in
                let channel = Channel<Int>()
                synchronously { _ = source.mapError { $0 as any Error }.subscribe(channel.followingTerminal) }
                return channel.leadingTerminal.mapError { _ in TestError.first }
            }, sync: [.completed], hot: [.next(1), .next(2), .next(3)]),
            row("ObservableValue.signal, set from the source", { source in
                Signal { subscriber in
                    let cell = ObservableValue(0)
                    return CompoundDisposable([
                        cell.signal.promoteError(TestError.self).subscribe(subscriber),
                        source.subscribe(next: { cell.value = $0 }),
                    ])
                }
            }, sync: [.next(0), .next(1), .next(2), .next(3)], hot: [.next(0), .next(1), .next(2), .next(3)]),
            row("ObservableValue.channel, set from the source", { source in
                Signal { subscriber in
                    let cell = ObservableValue(0)
                    return CompoundDisposable([
                        cell.channel.mapError { _ in TestError.first }.subscribe(subscriber),
                        source.subscribe(next: { cell.value = $0 }),
                    ])
                }
                // The cell, kept by the source's subscription only, ends its channel when released.
            }, sync: [.next(0), .next(1), .next(2), .next(3), .completed], hot: [.next(0), .next(1), .next(2), .next(3), .completed]).endingOnlyWhenLetGo(),
            row("ObservableValue, set through its channel", { source in
                Signal { subscriber in
                    let cell = ObservableValue(0)
                    // The channel holds the cell weakly: the source's subscription keeps it.
                    let keepingTheCell = source.map { value in withExtendedLifetime(cell) { value } }
                    return CompoundDisposable([
                        cell.signal.promoteError(TestError.self).subscribe(subscriber),
                        keepingTheCell.mapError { $0 as any Error }.subscribe(cell.channel),
                    ])
                }
            }, sync: [.next(0), .next(1), .next(2), .next(3)], hot: [.next(0), .next(1), .next(2), .next(3)]),
        ])
    }
}

extension ThreadMatrixTests {
    /// Each `Property` member that makes a signal or a property, over a cell set from the source
    /// (or, for a constant, made from each value), in a created signal that keeps what it made.
    func testProperties() {
        assertMatrix([
            row("Property(_:).signal, set from the source", { source in
                following(source) { cell in Property(cell) }
            }, sync: [.next(0), .next(1), .next(2), .next(3)], hot: [.next(0), .next(1), .next(2), .next(3)]),
            row("Property.changes, set from the source", { source in
                following(source, through: \.changes) { cell in Property(cell) }
            }, sync: [.next(1), .next(2), .next(3)], hot: [.next(1), .next(2), .next(3)]),
            row("Property.map, set from the source", { source in
                following(source) { cell in Property(cell).map { $0 * 10 } }
            }, sync: [.next(0), .next(10), .next(20), .next(30)], hot: [.next(0), .next(10), .next(20), .next(30)]),
            row("Property.combineLatest(with:) a constant, set from the source", { source in
                following(source) { cell in Property(cell).combineLatest(with: Property(value: 100)).map { $0 + $1 } }
            }, sync: [.next(100), .next(101), .next(102), .next(103)], hot: [.next(100), .next(101), .next(102), .next(103)]),
            row("Property.combineLatest(_:_:), set from the source", { source in
                following(source) { cell in Property.combineLatest(Property(value: 100), Property(cell)).map { $0 + $1 } }
            }, sync: [.next(100), .next(101), .next(102), .next(103)], hot: [.next(100), .next(101), .next(102), .next(103)]),
            row("Property.zip(with:) its own map, set from the source", { source in
                following(source) { cell in
                    let property = Property(cell)
                    return property.zip(with: property.map { $0 * 10 }).map { $0 + $1 }
                }
                // The zipped property, kept by the source's subscription only, completes its signal
                // when released.
            }, sync: [.next(0), .next(11), .next(22), .next(33), .completed], hot: [.next(0), .next(11), .next(22), .next(33), .completed]).endingOnlyWhenLetGo(),
            row("Property.zip(_:_:), set from the source", { source in
                following(source) { cell in
                    let property = Property(cell)
                    return Property.zip(property, property).map { $0 + $1 }
                }
            }, sync: [.next(0), .next(2), .next(4), .next(6), .completed], hot: [.next(0), .next(2), .next(4), .next(6), .completed]).endingOnlyWhenLetGo(),
            row("Property(value:), one per value", { source in
                source.flattenMap { Property(value: $0).signal.promoteError(TestError.self) }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // The source is subscribed as the property is made: where no scheduler is current, its
            // values may come before or after the subscriber joins, coalesced. The property, kept
            // by a second subscription to the source only, completes its signal when released.
            row("Property(initial:then:), following the source", { source in
                Signal { subscriber in
                    let property = Property(initial: 0, then: source.catch(to: .empty))
                    return CompoundDisposable([
                        property.signal.promoteError(TestError.self).subscribe(subscriber),
                        source.subscribe(next: { _ in withExtendedLifetime(property) {} }),
                    ])
                }
            }, sync: nil, hot: [.next(0), .next(1), .next(2), .next(3), .completed]).endingOnlyWhenLetGo(),
        ])
    }

    /// A group of `group(by:)` subscribed as the signal under test, a terminal of a channel sent
    /// to directly, and the bindings of `ObservableValue`, each in a created signal that forwards
    /// what reaches the cell or the object bound. `ThreadMatrix.lightRounds` per cell in modes
    /// (a)-(c): they deliver through the subjects of the rows above.
    func testGroupsTerminalsAndBindings() {
        assertMatrix([
            // The group is the signal under test, subscribed in the context. The source has ended
            // before the subscriber joins: a group, a subject, sends the end.
            row("GroupedSignal, fed synchronously", { source in
                synchronously {
                    let (group, input) = aGroup()
                    source.subscribe(input)
                    return group
                }
            }, sync: [.completed], hot: [.next(1), .next(2), .next(3)]),
            row("ChannelTerminal.sendNext and sendError at the following terminal, subscribed first at the leading one", { source in
                Signal<Int, TestError> { subscriber in
                    let channel = Channel<Int>()
                    let following = channel.followingTerminal
                    return CompoundDisposable([
                        channel.leadingTerminal.mapError { _ in TestError.first }.subscribe(subscriber),
                        source.tryMap(failingAtThree).subscribe(
                            next: { following.sendNext($0) }, error: { following.sendError($0) }, completed: { following.sendCompleted() }
                        ),
                    ])
                }
            }, sync: [.next(10), .next(20), .error(.first)], hot: [.next(10), .next(20), .error(.first)]),
            MatrixRow("ObservableValue.bind(from:)", { (source: Signal<Int, Never>) in
                Signal<Int, TestError> { subscriber in
                    let cell = ObservableValue(0)
                    // The binding holds the cell weakly: the source's subscription keeps it.
                    let keepingTheCell = source.map { value in withExtendedLifetime(cell) { value } }
                    return CompoundDisposable([
                        cell.signal.promoteError(TestError.self).subscribe(subscriber),
                        cell.bind(from: keepingTheCell),
                    ])
                }
            }, sync: [.next(0), .next(1), .next(2), .next(3)], hot: [.next(0), .next(1), .next(2), .next(3)]),
            row("ObservableValue.bind(to:on:), set from the source", { source in
                Signal { subscriber in
                    let cell = ObservableValue(0)
                    let target = ForwardingTarget(subscriber)
                    // Neither is kept by the binding: the source's subscription keeps both.
                    return CompoundDisposable([
                        cell.bind(to: \.value, on: target),
                        source.subscribe(next: { value in withExtendedLifetime(target) { cell.value = value } }),
                    ])
                }
            }, sync: [.next(0), .next(1), .next(2), .next(3)], hot: [.next(0), .next(1), .next(2), .next(3)]),
            row("ObservableValue.bind(to:) another cell, set from the source", { source in
                Signal { subscriber in
                    let cell = ObservableValue(0)
                    let mirror = ObservableValue(-1)
                    return CompoundDisposable([
                        mirror.signal.promoteError(TestError.self).subscribe(subscriber),
                        cell.bind(to: mirror),
                        source.subscribe(next: { value in withExtendedLifetime(mirror) { cell.value = value } }),
                    ])
                }
            }, sync: [.next(-1), .next(0), .next(1), .next(2), .next(3)], hot: [.next(-1), .next(0), .next(1), .next(2), .next(3)]),
        ].map { $0.inRounds(ThreadMatrix.lightRounds) })
    }
}

/// The signal at `path` (``Property/signal`` by default) of the property `make` makes from a
/// cell, subscribed first; then the source sets the cell. The subscription keeps the property.
private func following(
    _ source: Signal<Int, TestError>,
    through path: KeyPath<Property<Int>, Signal<Int, Never>> & Sendable = \.signal,
    _ make: @escaping @Sendable (ObservableValue<Int>) -> Property<Int>
) -> Signal<Int, TestError> {
    Signal { subscriber in
        let cell = ObservableValue(0)
        let property = make(cell)
        return CompoundDisposable([
            property[keyPath: path].promoteError(TestError.self).subscribe(subscriber),
            source.subscribe(next: { value in withExtendedLifetime(property) { cell.value = value } }),
        ])
    }
}

/// A group of `group(by:)`, made at once by a first value (which no one sees), and the input that
/// feeds the values after it to the group; the subscription to the groups ends with the input.
///
/// Called with a scheduler current, so that the subscription is made at once.
private func aGroup() -> (group: GroupedSignal<Int, Int, TestError>, input: Subscriber<Int, TestError>) {
    let (values, input) = Signal<Int, TestError>.pipe()
    let made = Lock<GroupedSignal<Int, Int, TestError>?>(nil)
    values.group(by: { _ in 0 }).subscribe(next: { group in made.withLock { $0 = group } })
    input.sendNext(0)
    return (made.withLock { $0 }!, input)
}

/// An object whose `value` setter sends what is written to `subscriber`.
private final class ForwardingTarget: Sendable {
    private let subscriber: Subscriber<Int, TestError>

    init(_ subscriber: Subscriber<Int, TestError>) {
        self.subscriber = subscriber
    }

    var value: Int {
        get { 0 }
        set { subscriber.sendNext(newValue) }
    }
}

/// `value * 10`, failing with `.second` at 3.
@Sendable private func failingAtThree(_ value: Int) throws(TestError) -> Int {
    if value == 3 { throw .second }
    return value * 10
}

/// A signal whose subscriber joins `subject` first, then `source` feeds the subject.
private func relay(through subject: Subject<Int, TestError>, from source: Signal<Int, TestError>) -> Signal<Int, TestError> {
    Signal { subscriber in
        CompoundDisposable([subject.subscribe(subscriber), source.subscribe(subject)])
    }
}

/// What `body` makes, with a scheduler current, so that a created signal it subscribes to sends
/// everything before `body` returns, whatever the thread.
private func synchronously<Made>(_ body: () -> Made) -> Made {
    var made: Made?
    feeder.performAsCurrentScheduler { made = body() }
    return made!
}

private let feeder = QueueScheduler(name: "thread matrix feeder")

/// `subject`, subscribed to `source` at once.
private func fed(_ subject: Subject<Int, TestError>, from source: Signal<Int, TestError>) -> Signal<Int, TestError> {
    source.subscribe(subject)
    return subject
}

extension XCTestCase {
    /// Runs the matrix over `rows` and fails once for each failing cell, naming it.
    func assertMatrix(_ rows: [MatrixRow], file: StaticString = #filePath, line: UInt = #line) {
        for failure in ThreadMatrix.failures(of: rows) {
            XCTFail(failure, file: file, line: line)
        }
    }
}

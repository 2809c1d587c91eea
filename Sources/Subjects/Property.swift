import Disposables
import Observation
import Signals
import Synchronization

/// A read-only view of a current value: its ``value`` now, and a ``signal`` of the value then
/// each change. What a view model hands out while it keeps the ``ObservableValue`` it writes.
///
/// ```swift
/// final class LoginViewModel {
///     /// What the view shows; only the model changes it.
///     let status: Property<String>
///     let canSubmit: Property<Bool>
///     private let statusCell = ObservableValue("Signed out")
///     private let name = ObservableValue("")
///
///     init() {
///         status = Property(statusCell)
///         canSubmit = Property(name).map { !$0.isEmpty }
///     }
///
///     func signIn() { statusCell.value = "Signing in…" }
/// }
///
/// let model = LoginViewModel()
/// model.status.signal.subscribeNext { print($0) }   // prints "Signed out" at once
/// model.signIn()                                    // prints "Signing in…"
/// model.status.value                                // "Signing in…"
/// ```
///
/// A property comes from a cell (``init(_:)``), a constant (``init(value:)``), a signal it
/// follows from an initial value (``init(initial:then:)``), or other properties, by ``map(_:)``,
/// ``combineLatest(with:)`` and ``zip(with:)``, which give properties again.
///
/// - ``value`` is the current value; reading it from any thread is safe.
/// - ``signal`` sends the current value at once to each subscriber, on the subscribing thread,
///   then every change, in order, as an ``ObservableValue``'s signal does (changes that race may
///   arrive coalesced, but the last value sent is the final one). It does not complete while the
///   property can change, and never fails; a constant's completes after its one value.
/// - ``changes`` sends the changes only.
///
/// A property made by ``map(_:)`` or ``combineLatest(with:)`` is computed from its sources and
/// stores nothing: its ``value`` computes from their values at each read, and its ``signal``
/// computes each change for each subscriber, on the thread that changes a source (so keep the
/// transform cheap and free of side effects). A property that must remember, one made by
/// ``zip(with:)`` or ``init(initial:then:)``, follows its source into a cell of its own, on the
/// thread that sends, and its ``value`` reads that.
///
/// Derivations nest: a read or a change reaches a property derived from derived properties
/// through one call per step. A release build holds chains 10,000 deep on a thread's 8 MB stack; a
/// debug build's larger frames, or a sanitizer's, much fewer (a change through a zipped property
/// takes about 4 KiB of a debug build's stack: 100 fit on a 512 KiB thread): derive from the cell,
/// not from a long chain of properties. A chain too deep for the thread's stack stops the program
/// with a message instead of overflowing it: every fourth computed property of a chain checks the
/// stack before a read goes on, every fourth zipped one before a change does, and subscribing to a
/// computed property's ``signal`` is checked as any signal chain is. A chain of properties made by
/// ``init(initial:then:)`` from each other's signals is not counted, and not checked. Letting go of
/// the last of a chain releases the others in a loop, however long it is.
///
/// A derived property keeps its sources alive while it lives. Its ``signal`` does not keep it:
/// a computed property's signal goes on while the cells it is computed from live, and a
/// following property's signal completes when the property goes (it then stops following its
/// source, disposing that subscription). So keep the property you subscribe to, as a view model
/// keeps its cells.
///
/// Swift's Observation sees it: reading ``value`` inside `withObservationTracking`, or in a
/// SwiftUI view's `body`, registers the read, and the next change calls `onChange` (see
/// ``ObservableValue`` for when and on which thread). A computed property is told of every
/// change of the cells it reads (its result may be equal); a following one, of every change of
/// its own cell. A constant never changes.
///
/// A property never changes after it is made (only what it views does): share it between threads
/// freely.
///
/// Other libraries: ReactiveSwift's `Property` (`producer` here is ``signal``, `signal` here is
/// ``changes``); RxSwift's `BehaviorRelay` exposed as its `value` and `asObservable()`; Combine's
/// `CurrentValueSubject` exposed as `value` and `AnyPublisher`.
///
/// New; RAC 2.5 has none (there a read-only property is `RACObserve` on a `readonly` property).
public final class Property<Value: Sendable>: Sendable, Observable {
    /// Written by the initializers, and taken out by the deinit (see `deinit`).
    @exclusivity(unchecked) nonisolated(unsafe) private var storage: Storage

    /// How deeply a read of ``value`` nests here: 0 for a property that stores its value (a cell,
    /// a constant, a following property), one more than its deepest source for a computed one.
    /// Known when the property is made, it says where along a chain a read checks the stack.
    private let readDepth: Int

    /// How many following properties (``zip(with:)``) a change passes through, nested, on its
    /// longest way here from a cell: one more than its deepest source's for a zipped property, as
    /// many as its deepest source's for a computed one, 0 for the rest (a property made by
    /// ``init(initial:then:)`` cannot tell where its signal comes from). Known when the property
    /// is made, it says where along a chain a change checks the stack.
    private let changeDepth: Int

    /// The current value, then every change.
    ///
    /// The current value goes at once, on the subscribing thread; each change goes on the thread
    /// that made it. It does not complete while the property can change (a constant's completes
    /// after its value), and never fails.
    ///
    /// ```swift
    /// model.status.signal.subscribeNext { label.text = $0 }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `producer`; RxSwift's `BehaviorRelay.asObservable()`;
    /// Combine's `CurrentValueSubject` as a publisher.
    ///
    /// RAC 2.5: `RACObserve(object, keyPath)`.
    public let signal: Signal<Value, Never>

    private enum Storage: Sendable {
        case constant(Value)
        case cell(ObservableValue<Value>)
        /// Computed from other properties at each read; the closure keeps them.
        case computed(@Sendable () -> Value)
        /// A cell that follows a signal; the derivation keeps the sources.
        case following(Derivation<Value>)
        /// What the deinit leaves once it has taken the rest out.
        case released
    }

    /// Lets go of what the property holds through `Trampoline.release(_:)`: a derived property
    /// holds its sources (a computed one's closure does, a following one's derivation), so letting
    /// go of the last of a chain built in a loop would release one nested deinit per property,
    /// overflowing the stack. Past a few levels, the trampoline releases them in a loop.
    deinit {
        Trampoline.release { () -> Storage in
            let taken = storage
            storage = .released
            return taken
        }
    }

    /// A view of `cell`: its value and its changes. The property keeps the cell.
    ///
    /// ```swift
    /// private let cell = ObservableValue(0)
    /// lazy var count = Property(cell)
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property(capturing:)` of a `MutableProperty`; RxSwift's
    /// `BehaviorRelay` passed as `Observable`; Combine's
    /// `currentValueSubject.eraseToAnyPublisher()`.
    ///
    /// RAC 2.5: `RACObserve` on a `readonly` property.
    public init(_ cell: ObservableValue<Value>) {
        storage = .cell(cell)
        readDepth = 0
        changeDepth = 0
        signal = cell.signal
    }

    /// A property that always holds `value`: its ``signal`` sends `value` and completes, and its
    /// ``changes`` completes at once.
    ///
    /// ```swift
    /// let title = Property(value: "Settings")
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property(value:)`; RxSwift's `Observable.just`; Combine's
    /// `Just`.
    ///
    /// RAC 2.5: none.
    public init(value: Value) {
        storage = .constant(value)
        readDepth = 0
        changeDepth = 0
        // At once, on the subscribing thread, as every property's signal sends its value (where
        // `Signal.return` would go through the subscription scheduler).
        signal = Signal(producer: { sink in
            sink.receive(value)
            sink.receiveCompleted()
            return nil
        })
    }

    /// A property that holds `initial`, then each value `signal` sends: it keeps the last one
    /// after `signal` has completed.
    ///
    /// `signal` is subscribed at once (through the subscription scheduler, as any subscription:
    /// a created signal may start on a background scheduler where none is current), and its
    /// subscription is disposed when the property goes; the property's ``signal`` completes
    /// then. Values `signal` sends while it is subscribed replace `initial` at once.
    ///
    /// ```swift
    /// let progress = Property(initial: 0.0, then: download.fractions)
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property(initial:then:)`; RxSwift's
    /// `observable.startWith(initial)` into a `BehaviorRelay`; Combine's
    /// `publisher.prepend(initial)` into a `CurrentValueSubject`.
    ///
    /// RAC 2.5: none; there a property bound with `RAC(object, keyPath) = signal`.
    public convenience init(initial: Value, then signal: Signal<Value, Never>) {
        self.init(derivation: Derivation(following: signal, initial: { initial }, keeping: [], changeDepth: 0), changeDepth: 0)
    }

    /// A property computed by `read` from properties whose signals make `signal`; see
    /// ``readDepth`` and ``changeDepth``.
    ///
    /// A read nests one call per computed property, so every `stackCheckInterval`-th one of a
    /// chain reads through a closure that checks the stack first; the others read as they always
    /// did.
    private init(read: @escaping @Sendable () -> Value, signal: Signal<Value, Never>, readDepth: Int, changeDepth: Int) {
        if readDepth % Property.stackCheckInterval == 0 {
            storage = .computed({
                if _slowPath(StackCheck.isLow()) { propertyChainTooDeep("reading the value of a property", depth: readDepth) }
                return read()
            })
        } else {
            storage = .computed(read)
        }
        self.readDepth = readDepth
        self.changeDepth = changeDepth
        self.signal = signal
    }

    private init(derivation: Derivation<Value>, changeDepth: Int) {
        storage = .following(derivation)
        readDepth = 0
        self.changeDepth = changeDepth
        // Ends when the derivation goes, with the property. Through a lifetime rather than the
        // cell's channel: the channel's completion, sent from the cell's deinit outside any
        // delivery, waited for another thread's delivery of the signal, so a subscriber's callback
        // waiting for the thread that let go of the property deadlocked with it.
        signal = derivation.cell.signal.take(during: derivation.lifetime)
    }

    /// The current value. Reading it from any thread is safe; Observation registers the read.
    ///
    /// Other libraries: ReactiveSwift's `value`; RxSwift's `BehaviorRelay.value`; Combine's
    /// `CurrentValueSubject.value`.
    ///
    /// RAC 2.5: the property's getter.
    public var value: Value {
        switch storage {
        case let .constant(value): value
        // The cell registers the read with Observation: its changes are this property's.
        case let .cell(cell): cell.value
        case let .computed(read): read()
        case let .following(derivation): derivation.cell.value
        case .released: preconditionFailure("Property: read during its own deinit")
        }
    }

    /// The changes only, without the current value: each change, on the thread that made it. A
    /// constant's completes at once.
    ///
    /// ```swift
    /// model.status.changes.subscribeNext { print("now", $0) }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.signal`; RxSwift's `relay.skip(1)`; Combine's
    /// `subject.dropFirst()`.
    ///
    /// RAC 2.5: `[RACObserve(object, keyPath) skip:1]`.
    public var changes: Signal<Value, Never> {
        signal.skip(1)
    }

    /// A property holding `transform(value)`: computed at each read of its ``value``, and for
    /// each subscriber of its ``signal`` at each change, on the thread that makes it. It stores
    /// nothing, and keeps this property alive while it lives (see ``Property``).
    ///
    /// ```swift
    /// let count = Property(cell)            // 2
    /// let label = count.map { "\($0) items" }
    /// label.value                           // "2 items"
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.map`; RxSwift's `relay.map` (an `Observable`);
    /// Combine's `subject.map` (a publisher).
    ///
    /// RAC 2.5: `-map:` on `RACObserve(…)`.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        Property<U>(read: { transform(self.value) }, signal: signal.map(transform), readDepth: readDepth + 1, changeDepth: changeDepth)
    }

    /// A property holding the pair of this property's value and `other`'s: its ``signal`` sends
    /// a pair when either changes. It stores nothing, and keeps both alive while it lives.
    ///
    /// ```swift
    /// let form = name.combineLatest(with: password).map { !$0.isEmpty && !$1.isEmpty }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.combineLatest(with:)`; RxSwift's
    /// `Observable.combineLatest`; Combine's `combineLatest`.
    ///
    /// RAC 2.5: `+combineLatest:` of `RACObserve`s.
    public func combineLatest<U: Sendable>(with other: Property<U>) -> Property<(Value, U)> {
        Property<(Value, U)>(
            read: { (self.value, other.value) },
            signal: signal.combineLatest(with: other.signal),
            readDepth: Swift.max(readDepth, other.readDepth) + 1,
            changeDepth: Swift.max(changeDepth, other.changeDepth)
        )
    }

    /// A property holding the latest zipped pair: the values of both now, then, each time both
    /// have changed once more, the pair of their next changes, in order (a change waits for its
    /// partner; one side's extra changes queue up). Zipped with a constant, it keeps the first
    /// pair. It follows the two into a cell of its own, and keeps both alive while it lives.
    ///
    /// ```swift
    /// let moves = request.zip(with: response)   // each request with its response
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.zip(with:)`; RxSwift's `Observable.zip`;
    /// Combine's `zip`.
    ///
    /// RAC 2.5: `+zip:` of `RACObserve`s.
    public func zip<U: Sendable>(with other: Property<U>) -> Property<(Value, U)> {
        let changeDepth = Swift.max(changeDepth, other.changeDepth) + 1
        return Property<(Value, U)>(derivation: Derivation(
            following: signal.zip(with: other.signal),
            initial: { (self.value, other.value) },
            keeping: [self, other],
            changeDepth: changeDepth
        ), changeDepth: changeDepth)
    }

    /// A property holding the pair of `first`'s and `second`'s values, updated when either
    /// changes: `first.combineLatest(with: second)`.
    ///
    /// ```swift
    /// let both = Property.combineLatest(name, password)
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.combineLatest(_:_:)`; RxSwift's
    /// `Observable.combineLatest`; Combine's `Publishers.CombineLatest`.
    ///
    /// RAC 2.5: `+combineLatest:`.
    public static func combineLatest<A: Sendable, B: Sendable>(_ first: Property<A>, _ second: Property<B>) -> Property
    where Value == (A, B) {
        first.combineLatest(with: second)
    }

    /// A property holding the latest zipped pair of `first`'s and `second`'s values:
    /// `first.zip(with: second)`.
    ///
    /// ```swift
    /// let pairs = Property.zip(requests, responses)
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Property.zip(_:_:)`; RxSwift's `Observable.zip`;
    /// Combine's `Publishers.Zip`.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<A: Sendable, B: Sendable>(_ first: Property<A>, _ second: Property<B>) -> Property
    where Value == (A, B) {
        first.zip(with: second)
    }
}

extension Property {
    /// How far apart, along a chain of derived properties, the stack is checked: a read or a
    /// change nests one call (or one delivery) per derivation, so every fourth one checks that
    /// `StackCheck.reserve` of the thread's stack is left before it goes on. A change through one
    /// zipped property (its zip, its cell, the cell's subscribers) takes about 4.4 KiB of stack in
    /// a debug build (x86-64 Linux, Swift 6.3), so four of them take 18 KiB, inside the reserve
    /// with room for a sanitizer's larger frames. The checking levels are chosen when the
    /// properties are made: a chain shorter than four never checks, and a level that does not
    /// check reads and changes exactly as before.
    static var stackCheckInterval: Int { 4 }
}

/// Stops the program: a read or a change passes through a chain of derived properties nested more
/// deeply than this thread's stack allows.
@inline(never)
func propertyChainTooDeep(_ what: StaticString, depth: Int) -> Never {
    let usage = StackCheck.usage().map { "\($0.used / 1024) KiB of its \($0.size / 1024) KiB stack used" } ?? "the stack nearly used up"
    badInput(
        "Property: \(what) nests more deeply than this thread's stack allows, at a property \(depth) derivations "
            + "from its cell (\(usage)). Each map, combineLatest, zip or init(initial:then:) of a property passes "
            + "reads and changes on through one nested call: a chain built in a loop nests once per property. "
            + "Derive from the cell in one step (one map composing the functions), or use a thread with a larger stack"
    )
}

/// A derived property's state: the cell holding its last result, the subscription that feeds it,
/// and the properties it is computed from. Letting go of it disposes the subscription.
final class Derivation<Value: Sendable>: Sendable {
    /// Held by the feed too, until it is disposed.
    let cell: ObservableValue<Value>
    private let feed: Disposable
    /// Taken out by the deinit, which lets go of them through the trampoline.
    @exclusivity(unchecked) nonisolated(unsafe) private var sources: [any Sendable]
    /// Ends when the derivation goes: the end of the property's ``Property/signal``.
    let lifetime: Lifetime
    private let token: Lifetime.Token

    /// Follows `signal` into a new cell. `signal` sends its first value while it is subscribed
    /// (every property's signal does); should it not, the cell starts at `initial()`, which it
    /// corrects when that value comes.
    ///
    /// A change reaches the cell through the feed, nested in the change of the source: every
    /// `Property.stackCheckInterval`-th following property of a chain (by `changeDepth`) feeds
    /// through a closure that checks the stack first.
    init(following signal: Signal<Value, Never>, initial: () -> Value, keeping sources: [any Sendable], changeDepth depth: Int) {
        let handoff = Handoff<Value>()
        // The feed holds the cell, not the derivation: releasing the derivation disposes it.
        if depth > 0, depth % Property<Value>.stackCheckInterval == 0 {
            feed = signal.subscribe(next: { value in
                if _slowPath(StackCheck.isLow()) { propertyChainTooDeep("a change passing through zipped properties", depth: depth) }
                handoff.deliver(value)
            })
        } else {
            feed = signal.subscribe(next: { value in handoff.deliver(value) })
        }
        cell = handoff.makeCell(initial: initial)
        self.sources = sources
        (lifetime, token) = Lifetime.make()
    }

    deinit {
        feed.dispose()
        // A source may be a derived property holding a derivation of its own: in a loop past a
        // few levels (see `Property`'s deinit).
        Trampoline.release { () -> [any Sendable] in
            let taken = sources
            sources = []
            return taken
        }
    }
}

/// Where a derivation's feed puts its values: until the cell is made, the latest value, which
/// the cell then starts from; after, the cell.
///
/// Invariant: `cell` is written once, inside `gate`, before `isMade` is set with a release;
/// whoever sees `isMade` set (with an acquire, or inside `gate`) may read it. `pending` is read
/// and written only inside `gate`, before `isMade` is set.
private final class Handoff<Value: Sendable>: @unchecked Sendable {
    /// A byte no one uses: in the unspecialized code, a lock of a generic state would look up
    /// the metadata of its `Mutex` at each value.
    private let gate = Lock<UInt8>(0)
    private let isMade = Atomic<Bool>(false)
    @exclusivity(unchecked) private var pending: Value?
    @exclusivity(unchecked) private var cell: ObservableValue<Value>?

    /// As the feed, one value at a time.
    func deliver(_ value: Value) {
        if isMade.load(ordering: .acquiring) {
            cell.unsafelyUnwrapped.value = value
            return
        }
        let isMade = gate.withLock { _ in
            if self.isMade.load(ordering: .relaxed) { return true }
            pending = value
            return false
        }
        if isMade { cell.unsafelyUnwrapped.value = value }
    }

    func makeCell(initial: () -> Value) -> ObservableValue<Value> {
        // `initial` is the user's code: it runs outside the lock, and only when the feed has not
        // sent a value yet; one that it sends meanwhile wins.
        if let cell = makeCell(from: nil) { return cell }
        let start = initial()
        return makeCell(from: start).unsafelyUnwrapped
    }

    /// The cell, made from the latest value the feed sent, else from `start`; `nil` when there
    /// is neither.
    private func makeCell(from start: Value?) -> ObservableValue<Value>? {
        gate.withLock { _ in
            guard let value = pending ?? start else { return nil }
            let made = ObservableValue(value)
            pending = nil
            cell = made
            isMade.store(true, ordering: .releasing)
            return made
        }
    }
}

import Disposables
import Synchronization

/// How long an owner lives, for ending what depends on it: the replacement, without an
/// Objective-C runtime, for RAC 2.5's `rac_willDeallocSignal`.
///
/// Nothing can attach to an object from outside on Linux, so the owner cooperates: it keeps the
/// ``Token`` that ``make()`` hands out in a stored property, and hands the ``Lifetime`` to whoever
/// must stop when it goes. The lifetime ends when the token is deinitialized, on whatever thread
/// releases its last reference, and only then; the lifetime itself does not keep the token or the
/// owner.
///
/// - ``ended`` completes when the lifetime ends; a subscriber that comes later gets the completion
///   at once. It sends no values.
/// - ``hasEnded`` says whether it has ended.
/// - ``observeEnded(_:)`` runs an action at the end, and ``add(_:)`` (or `lifetime += disposable`)
///   disposes a disposable then.
/// - `Signal`'s ``Signal/take(during:)`` ends a subscription then.
///
/// ```swift
/// final class SearchViewModel {
///     let lifetime: Lifetime
///     private let token: Lifetime.Token
///
///     init(queries: Signal<String, Never>) {
///         (lifetime, token) = Lifetime.make()
///         queries
///             .take(during: lifetime)      // ends, disposing `queries`' subscription, with the model
///             .subscribeNext { print("searching", $0) }
///     }
/// }
/// ```
///
/// Thread-safe. The end runs the observers on the thread that releases the token, one after
/// another, with no lock held: an observer may release another owner's token (that lifetime ends
/// then, nested), observe this lifetime again (it runs at once) or dispose anything. Each
/// lifetime ended that way adds its end to the stack: a chain of owners ending each other a few
/// thousand deep would overflow a thread's stack in a debug build (a release build holds 10,000 on
/// 8 MB), so an end that finds less than 64 KiB of its thread's stack left stops the program with
/// a message saying so, instead of a crash with no message. End such chains from a loop.
///
/// Other libraries: ReactiveSwift's `Lifetime` (`Lifetime.make()`, `ended`, `hasEnded`,
/// `observeEnded`, `+=`); RxSwift's `rx.deallocated` or a `DisposeBag` the owner keeps; Combine's
/// `Set<AnyCancellable>` the owner keeps.
///
/// RAC 2.5: `-rac_willDeallocSignal` (on any `NSObject`) and `-rac_deallocDisposable`.
public final class Lifetime: Sendable {
    /// Completes when the lifetime ends, and at once for a subscriber that comes after the end.
    /// It never sends a value, nor fails. Disposing a subscription to it removes the subscriber,
    /// so a long lifetime does not collect the subscriptions that ended before it.
    ///
    /// Its completion is sent from the token's deinit as any send is. ``Signal/take(during:)``
    /// and `take(until: lifetime.ended)` never wait for it to be delivered; an operator that
    /// merges it with another signal's values (`merge`, `combineLatest`, `zip`) makes the release
    /// wait while another thread delivers through that operator, so a callback there that waits
    /// for the releasing thread would deadlock with it. To end a subscription with the lifetime,
    /// use ``Signal/take(during:)``.
    ///
    /// RAC 2.5: `-rac_willDeallocSignal`.
    public let ended: Signal<Void, Never>

    private let state: LifetimeState

    private init(ended: Signal<Void, Never>, state: LifetimeState) {
        self.ended = ended
        self.state = state
    }

    /// A lifetime and the token that keeps it going: the lifetime ends when the token is
    /// deinitialized.
    ///
    /// Keep the token in a stored property of the owner (and nowhere else), and hand out the
    /// lifetime.
    ///
    /// ```swift
    /// var token: Lifetime.Token?
    /// let lifetime: Lifetime
    /// (lifetime, token) = Lifetime.make()
    /// lifetime.observeEnded { print("ended") }
    /// token = nil          // prints "ended"
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `Lifetime.make()`.
    ///
    /// RAC 2.5: none; there any `NSObject` has `-rac_willDeallocSignal`.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let (ended, input) = Signal<Void, Never>.pipe()
        let state = LifetimeState()
        return (Lifetime(ended: ended.named("Lifetime.ended"), state: state), Token(state: state, input: input))
    }

    /// A lifetime that has ended already: ``ended`` completes at once, and a signal taken during
    /// it with ``Signal/take(during:)`` completes at once without being subscribed.
    ///
    /// Other libraries: ReactiveSwift's `Lifetime.empty`.
    ///
    /// RAC 2.5: none.
    public static let empty: Lifetime = {
        let (lifetime, token) = make()
        withExtendedLifetime(token) {}
        return lifetime
    }()

    /// Whether the lifetime has ended: `true` from the moment the token's deinitialization
    /// starts ending it, before any observer runs.
    ///
    /// Other libraries: ReactiveSwift's `hasEnded`.
    ///
    /// RAC 2.5: none (a deallocated object cannot be asked).
    public var hasEnded: Bool {
        state.hasEnded.load(ordering: .acquiring)
    }

    /// Runs `action` once when the lifetime ends, on the thread that releases the token; at once,
    /// on the calling thread, if it has ended already.
    ///
    /// - Returns: A disposable that cancels the observation (the action does not run, and is
    ///   released), or `nil` when the lifetime had ended and the action has run. A lifetime
    ///   that ends on another thread during the call may give a disposable instead; disposing
    ///   it then does nothing.
    ///
    /// ```swift
    /// lifetime.observeEnded { connection.close() }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `observeEnded(_:)`; RxSwift's
    /// `rx.deallocated.subscribe(onNext:)`.
    ///
    /// RAC 2.5: `[[object rac_willDeallocSignal] subscribeCompleted:]`, or adding to
    /// `-rac_deallocDisposable`.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        if hasEnded {
            action()
            return nil
        }
        return ended.subscribe(completed: action)
    }

    /// Disposes `disposable` when the lifetime ends; at once, on the calling thread, if it has
    /// ended already. Does nothing for `nil`.
    ///
    /// The lifetime holds `disposable` until it ends, even if it was disposed meanwhile; for
    /// many short subscriptions during a long lifetime, use ``Signal/take(during:)``, which lets
    /// go of each as it ends.
    ///
    /// - Returns: A disposable that cancels this (and lets go of `disposable` without disposing
    ///   it), or `nil` when the lifetime had ended or `disposable` is `nil`.
    ///
    /// ```swift
    /// lifetime.add(timer.subscribeNext { tick in print(tick) })
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `lifetime += disposable` (here too);
    /// RxSwift's `disposed(by: bag)` with a bag the owner keeps; Combine's
    /// `store(in: &cancellables)`.
    ///
    /// RAC 2.5: `[[object rac_deallocDisposable] addDisposable:]`.
    @discardableResult
    public func add(_ disposable: Disposable?) -> Disposable? {
        guard let disposable else { return nil }
        return observeEnded { disposable.dispose() }
    }

    /// Disposes `disposable` when `lifetime` ends: ``add(_:)``.
    ///
    /// ```swift
    /// lifetime += timer.subscribeNext { tick in print(tick) }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `lifetime += disposable`.
    ///
    /// RAC 2.5: `[[object rac_deallocDisposable] addDisposable:]`.
    @discardableResult
    public static func += (lifetime: Lifetime, disposable: Disposable?) -> Disposable? {
        lifetime.add(disposable)
    }

    /// What keeps a ``Lifetime`` going: the lifetime ends when the token is deinitialized.
    ///
    /// The owner keeps it in a stored property and never hands it out; releasing the owner
    /// releases it, and the lifetime ends on the thread that does so, running its observers
    /// there before the release returns.
    ///
    /// Other libraries: ReactiveSwift's `Lifetime.Token`.
    ///
    /// RAC 2.5: none; the object's own deallocation.
    public final class Token: Sendable {
        private let state: LifetimeState
        private let input: Subscriber<Void, Never>

        fileprivate init(state: LifetimeState, input: Subscriber<Void, Never>) {
            self.state = state
            self.input = input
        }

        /// Ends the lifetime. Lifetimes that end each other (an observer of one releases the
        /// owner of the next) nest one end inside another: past what this thread's stack holds
        /// (less than `StackCheck.reserve` of it left), the end stops the program with a message
        /// instead of overflowing it.
        deinit {
            if _slowPath(StackCheck.isLow()) { Lifetime.tooDeep() }
            state.hasEnded.store(true, ordering: .releasing)
            // The pipe delivers with no lock held, and lets go of its subscribers after the end. A
            // deinit never waits: what the subscribers' callbacks owe a subject's bound is forgiven.
            DeliveryContext.neverWaiting { input.sendCompleted() }
        }
    }
}

extension Lifetime {
    /// Stops the program: ending a lifetime nests more deeply than this thread's stack allows.
    @inline(never)
    fileprivate static func tooDeep() -> Never {
        let usage = StackCheck.usage().map { "\($0.used / 1024) KiB of its \($0.size / 1024) KiB stack used" } ?? "the stack nearly used up"
        badInput(
            "Lifetime: ending a lifetime nests more deeply than this thread's stack allows (\(usage)). "
                + "Lifetimes that end each other (an observer of one releases the owner of the next, which ends its own "
                + "lifetime inside that observer) nest one end per lifetime. End a long chain in a loop "
                + "(release the owners one after another from one place), or on a thread with a larger stack"
        )
    }
}

/// Whether a ``Lifetime`` has ended, shared by the lifetime and its token.
private final class LifetimeState: Sendable {
    let hasEnded = Atomic<Bool>(false)
}

extension Lifetime {
    /// A hint, not an operator: `Lifetime()`, which cannot make a lifetime that ever ends; its
    /// owner keeps the token of ``make()``.
    @available(*, unavailable, message: "make one with Lifetime.make(): let (lifetime, token) = Lifetime.make(); the owner keeps the token in a stored property, and the lifetime ends when the token goes (Lifetime.empty has ended already)")
    public convenience init() {
        unreachableStubBody()
    }
}

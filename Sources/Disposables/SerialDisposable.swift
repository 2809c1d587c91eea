import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A slot for one disposable at a time, whose content can be swapped atomically.
///
/// Putting a new disposable in does **not** dispose the old one: ``swap(_:)`` hands it back.
/// Disposing the serial disposable disposes what it holds; once disposed, anything put in is
/// disposed at once.
///
/// Serial disposables may hold one another to any depth: disposing or releasing such a chain runs
/// in constant stack (see ``CompoundDisposable``).
///
/// RAC 2.5: `RACSerialDisposable`.
public final class SerialDisposable: Disposable, @unchecked Sendable {
    /// What is held, in one word, so that a swap is one compare-and-swap and takes no lock:
    /// ``empty``; ``ended`` once disposed, for good; ``reading`` while the ``disposable`` getter
    /// retains what is held (a few instructions, and no user code, during which swaps and
    /// `dispose()` wait for the word to change); or else the address of the held disposable.
    ///
    /// Invariant: while the word holds an address, it owns one strong reference to that
    /// disposable (put in with `Unmanaged.passRetained`), which passes to whoever takes the
    /// address out of the word with a successful compare-and-swap (`swap(_:)`, `dispose()`) or in
    /// `deinit`; only the getter, which puts the same address back, reads it without taking it,
    /// and it retains the disposable while the word holds ``reading``, so no one can release it
    /// meanwhile (in a call the optimizer cannot move the retain out of: `retainedDisposable`).
    /// Taking and putting order with acquiring and releasing, so that a disposable put
    /// in by one thread is whole when another takes it.
    private let state: Atomic<UInt>

    private static let empty: UInt = 0
    private static let ended: UInt = 1
    private static let reading: UInt = 2

    /// A serial disposable holding `inner`, or nothing.
    ///
    /// RAC 2.5: `+serialDisposableWithDisposable:`.
    public init(_ inner: Disposable? = nil) {
        state = Atomic(Self.word(retaining: inner))
        super.init()
    }

    /// A serial disposable holding a ``Disposable`` that runs `action`.
    ///
    /// RAC 2.5: `+[RACSerialDisposable disposableWithBlock:]`.
    public override convenience init(_ action: @escaping @Sendable () -> Void) {
        self.init(Disposable(action))
    }

    /// The disposable held now; setting it is ``swap(_:)`` with the old one dropped, not disposed.
    ///
    /// RAC 2.5: `disposable`.
    public var disposable: Disposable? {
        get {
            var current = state.load(ordering: .acquiring)
            while true {
                if current == Self.empty || current == Self.ended { return nil }
                if current == Self.reading {
                    current = waitWhileReading()
                    continue
                }
                let (exchanged, original) = state.compareExchange(
                    expected: current, desired: Self.reading, successOrdering: .acquiring, failureOrdering: .acquiring
                )
                guard exchanged else {
                    current = original
                    continue
                }
                // The word still owns its reference; this strong one is the caller's, retained
                // before the word is put back (see `retainedDisposable`).
                let held = Self.retainedDisposable(current)
                state.store(current, ordering: .releasing)
                return held
            }
        }
        set { swap(newValue) }
    }

    /// Puts `newDisposable` in and returns the one it replaces, undisposed.
    ///
    /// - Returns: The previous content, or `nil` when the serial disposable is already disposed,
    ///   in which case `newDisposable` is disposed at once.
    ///
    /// RAC 2.5: `-swapInDisposable:`.
    @discardableResult
    public func swap(_ newDisposable: Disposable?) -> Disposable? {
        // `dispose()` marks before it takes what is held: a swap it has not yet seen is turned
        // away here, as one after it is by the word.
        if !isDisposed {
            let desired = Self.word(retaining: newDisposable)
            let previous = exchange(desired)
            if previous != Self.ended { return Self.take(previous) }
            if desired != Self.empty { Self.unmanaged(desired).release() }
        }
        newDisposable?.dispose()
        return nil
    }

    /// Disposes the held disposable, once; later ones are disposed as they arrive.
    public override func dispose() {
        guard markDisposed() else { return }
        guard let held = Self.take(exchange(Self.ended)) else { return }
        Trampoline.dispose(held)
    }

    deinit {
        // Nothing else can reach the word now. A disposed serial disposable has let go of what
        // it held already.
        var held = Self.take(state.load(ordering: .acquiring))
        if held == nil { return }
        // What it held may hold a serial disposable, and so on: released through the trampoline.
        Trampoline.release { held.take() }
    }

    /// Puts `desired` in the word unless it is ``ended``, after any read under way; returns what
    /// the word held (``ended`` when it was, and `desired` was not put in).
    private func exchange(_ desired: UInt) -> UInt {
        var current = state.load(ordering: .acquiring)
        while true {
            if current == Self.ended { return current }
            if current == Self.reading {
                current = waitWhileReading()
                continue
            }
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: desired, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring
            )
            if exchanged { return current }
            current = original
        }
    }

    /// Waits for the getter's read to end (it retains one object, and runs no user code), and
    /// returns what the word holds then.
    private func waitWhileReading() -> UInt {
        var spins = 0
        while true {
            let current = state.load(ordering: .acquiring)
            if current != Self.reading { return current }
            spins += 1
            // The reader may have been preempted: let it run.
            if spins.isMultiple(of: 64) { sched_yield() }
        }
    }

    /// The word for holding `disposable`, which then owns a strong reference to it, retained
    /// inside this call: not inlined, so that the retain cannot move past the compare-and-swap
    /// that publishes the word (see `retainedDisposable`).
    @inline(never)
    private static func word(retaining disposable: Disposable?) -> UInt {
        guard let disposable else { return empty }
        return UInt(bitPattern: Unmanaged.passRetained(disposable).toOpaque())
    }

    /// The disposable a word taken out of `state` held, with the reference the word owned.
    private static func take(_ word: UInt) -> Disposable? {
        guard word != empty, word != ended, word != reading else { return nil }
        return unmanaged(word).takeRetainedValue()
    }

    /// A strong reference to the disposable `word` holds, retained inside this call.
    ///
    /// Not inlined, and not optimized, so that the retain happens before the call returns:
    /// inlined, the optimizer moved it past the getter's atomic store that puts the word back (an
    /// atomic store of an integer does not hold a retain back), and a swap on another thread could
    /// then take the word and free the disposable first: a release build crashed so, where debug
    /// builds and the sanitizers passed.
    @inline(never) @_optimize(none)
    private static func retainedDisposable(_ word: UInt) -> Disposable {
        unmanaged(word).takeUnretainedValue()
    }

    private static func unmanaged(_ word: UInt) -> Unmanaged<Disposable> {
        // Only a word that holds an address is passed here.
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
    }
}

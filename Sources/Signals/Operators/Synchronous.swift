import Dispatch
import Disposables
import Foundation
import Synchronization

// The blocking forms wait for the signal on the calling thread. They deadlock when the signal
// needs that thread to make progress: calling them on the main thread for a signal that delivers
// on the main queue (`deliver(on: .main)`, `deliverOnMainThread()` from another thread), inside a
// block of a scheduler the signal sends on, or inside a `TestScheduler` block for a signal on that
// test scheduler. The asynchronous forms spin the current run loop instead, so work queued on the
// main queue still runs while they wait on the main thread.

extension Signal {
    /// Subscribes, blocks the calling thread until the first value or the end, and returns that
    /// value, or `nil` when the signal completes without one; throws the signal's error when it
    /// fails first.
    ///
    /// The subscription is disposed right after the first value. For a `Signal<Value, Never>`
    /// there is nothing to catch and no `try` to write; `try? signal.first()` gives RAC 2.5's `nil`
    /// on error. Blocking: see <doc:ThreadingAndSchedulers#Blocking-for-a-result> for when it
    /// deadlocks. On the main thread it never sees work queued for the main queue (a
    /// `deliverOnMainThread()`, a `delay` on `Scheduler.main`, a `Command`): use
    /// ``asynchronousFirst(default:timeout:)``, which runs the main run loop while it waits, or,
    /// from async code, ``firstValue()``.
    ///
    /// ```swift
    /// let answer = Signal<Int, Never>.return(1).first()   // 1
    /// let page = try request.first()                       // throws the request's error
    /// ```
    ///
    /// RAC 2.5: `-first` (which returns `nil` on error; `-firstOrDefault:success:error:` gives the
    /// error).
    @available(*, noasync, message: "blocks the thread; from async code use await firstValue()")
    public func first() throws(Failure) -> Value? {
        try firstResult().get()
    }

    /// Subscribes, blocks the calling thread until the first value or the end, and returns that
    /// value, or `defaultValue` when the signal ends without one or fails.
    ///
    /// Blocking, as ``first()`` is: on the main thread it never sees work queued for the main
    /// queue, and it deadlocks when the signal needs the calling thread.
    ///
    /// RAC 2.5: `-firstOrDefault:`.
    @available(*, noasync, message: "blocks the thread; from async code use await firstValue()")
    public func first(default defaultValue: Value) -> Value {
        if case let .success(value?) = firstResult() { return value }
        return defaultValue
    }

    /// Subscribes, blocks the calling thread until the first value or the end, and returns the
    /// first value, `.success(nil)` when the signal completes without one, or the error.
    ///
    /// The subscription is disposed right after the first value. Blocking, as ``first()`` is: on
    /// the main thread it never sees work queued for the main queue (use
    /// ``asynchronousFirstResult(timeout:)`` there), and it deadlocks when the signal needs the
    /// calling thread.
    ///
    /// RAC 2.5: `-firstOrDefault:success:error:`.
    @available(*, noasync, message: "blocks the thread; from async code use await firstValue()")
    public func firstResult() -> Result<Value?, Failure> {
        let outcome = Outcome<Result<Value?, Failure>>()
        let subscription = subscribeFirst(outcome)
        defer { subscription.dispose() }
        return outcome.wait()
    }

    /// Subscribes and blocks the calling thread until the signal ends; returns `.success` when it
    /// completes and the error when it fails. Values are ignored.
    ///
    /// Blocking, as ``first()`` is: on the main thread it never sees work queued for the main
    /// queue (use ``asynchronouslyWaitUntilCompleted(timeout:)`` there), and it deadlocks when the
    /// signal needs the calling thread.
    ///
    /// RAC 2.5: `-waitUntilCompleted:`.
    @available(*, noasync, message: "blocks the thread; from async code use await allValues()")
    public func waitUntilCompleted() -> Result<Void, Failure> {
        let outcome = Outcome<Result<Void, Failure>>()
        let subscription = subscribeCompletion(outcome)
        defer { subscription.dispose() }
        return outcome.wait()
    }

    /// Subscribes, blocks the calling thread until the signal ends, and returns every value it
    /// sent; throws the signal's error when it fails (the values before it are dropped).
    ///
    /// For a `Signal<Value, Never>` there is nothing to catch and no `try` to write;
    /// `try? signal.toArray()` gives RAC 2.5's `nil` on error. Blocking, as ``first()`` is: on the
    /// main thread it never sees work queued for the main queue (use ``allValues()`` from async
    /// code), it deadlocks when the signal needs the calling thread, and it never returns for a
    /// signal that never ends.
    ///
    /// ```swift
    /// let all = Signal<Int, Never>.return(1).concat(.return(2)).toArray()   // [1, 2]
    /// ```
    ///
    /// RAC 2.5: `-toArray` (which returns `nil` on error).
    @available(*, noasync, message: "blocks the thread; from async code use await allValues()")
    public func toArray() throws(Failure) -> [Value] {
        let outcome = Outcome<Result<[Value], Failure>>()
        let collected = Collected<Value>()
        let subscription = subscribe(
            next: { collected.values.append($0) },
            error: { outcome.fulfill(.failure($0)) },
            completed: { outcome.fulfill(.success(collected.values)) }
        )
        defer { subscription.dispose() }
        return try outcome.wait().get()
    }

    /// Subscribes and runs the current thread's run loop until the first value, the end, or
    /// `timeout` seconds; returns that value, or `defaultValue` when the signal ends without one,
    /// fails, or the timeout passes first.
    ///
    /// Work queued on the run loop (on the main thread, the main queue) keeps running while it
    /// waits, so it can wait on the main thread for a signal that delivers there. The subscription
    /// is disposed when it returns.
    ///
    /// On the main thread the answer comes through the main queue, as in RAC 2.5, so main-queue
    /// work queued before it (everything queued before the call among it) has run when this
    /// returns, also when the signal answers synchronously; the run loop runs at least once, even
    /// with a timeout of zero. Inside a block on the main queue, which keeps other main-queue work
    /// from running until it returns, it returns the answer once the run loop has nothing it can
    /// run, or at the latest when the timeout passes. On any other thread it returns as soon as the
    /// answer comes; but it runs only that thread's run loop, so an answer that needs the main
    /// queue never comes there. That includes main-actor code on Linux under `dispatchMain()` or
    /// an `async` `main`, which runs on the main queue off the main thread: a value sent through
    /// `deliverOnMainThread()` waits for the main queue, which the waiting block holds, so the call
    /// returns `defaultValue` when the timeout passes (and never, with an infinite timeout). Use
    /// ``firstValue()`` from async code.
    ///
    /// The timeout is measured on a monotonic clock, so a wall clock that steps meanwhile neither
    /// cuts the wait short nor draws it out; an infinite timeout waits for the answer however long
    /// it takes, and a negative or NaN one stops the program.
    ///
    /// ```swift
    /// DispatchQueue.main.async { flag = true }
    /// Signal<Int, Never>.return(1).asynchronousFirst(default: 0, timeout: 1)   // 1, and flag is true
    /// ```
    ///
    /// RAC 2.5: `-asynchronousFirstOrDefault:success:error:`, which delivers on
    /// `RACScheduler.mainThreadScheduler` and may be called on the main thread only (here any
    /// thread with a run loop).
    @available(*, noasync, message: "blocks the thread; from async code use await firstValue()")
    public func asynchronousFirst(default defaultValue: Value, timeout: TimeInterval) -> Value {
        if case let .success(value?) = asynchronousFirstResult(timeout: timeout) { return value }
        return defaultValue
    }

    /// Subscribes and runs the current thread's run loop until the first value, the end, or
    /// `timeout` seconds; returns the first value, `.success(nil)` when the signal completes
    /// without one or the timeout passes first, or the error.
    ///
    /// Work queued on the run loop (on the main thread, the main queue) keeps running while it
    /// waits. The subscription is disposed when it returns. On the main thread the answer comes
    /// through the main queue, so main-queue work queued before the call has run when it returns,
    /// as ``asynchronousFirst(default:timeout:)`` explains, which also says how the timeout is
    /// measured.
    ///
    /// RAC 2.5: `-asynchronousFirstOrDefault:success:error:`, which delivers on
    /// `RACScheduler.mainThreadScheduler`, and whose timeout is an error instead.
    @available(*, noasync, message: "blocks the thread; from async code use await firstValue()")
    public func asynchronousFirstResult(timeout: TimeInterval) -> Result<Value?, Failure> {
        checkInput(timeout >= 0, "asynchronousFirstResult(timeout:) needs a timeout of zero or more, got \(timeout)")
        let outcome = Outcome<Result<Value?, Failure>>(throughMainQueue: Thread.isMainThread)
        let subscription = subscribeFirst(outcome)
        defer { subscription.dispose() }
        return outcome.runRunLoop(timeout: timeout) ?? .success(nil)
    }

    /// Subscribes and runs the current thread's run loop until the signal ends or `timeout`
    /// seconds pass; returns `.success` when it completed, the error when it failed, and `nil`
    /// when the timeout passed first. Values are ignored.
    ///
    /// Work queued on the run loop (on the main thread, the main queue) keeps running while it
    /// waits. The subscription is disposed when it returns. On the main thread the end comes
    /// through the main queue, so main-queue work queued before the call has run when it returns,
    /// as ``asynchronousFirst(default:timeout:)`` explains, which also says how the timeout is
    /// measured.
    ///
    /// RAC 2.5: `-asynchronouslyWaitUntilCompleted:`, which delivers on
    /// `RACScheduler.mainThreadScheduler`, and whose timeout is an error instead.
    @available(*, noasync, message: "blocks the thread; from async code use await allValues()")
    public func asynchronouslyWaitUntilCompleted(timeout: TimeInterval) -> Result<Void, Failure>? {
        checkInput(timeout >= 0, "asynchronouslyWaitUntilCompleted(timeout:) needs a timeout of zero or more, got \(timeout)")
        let outcome = Outcome<Result<Void, Failure>>(throughMainQueue: Thread.isMainThread)
        let subscription = subscribeCompletion(outcome)
        defer { subscription.dispose() }
        return outcome.runRunLoop(timeout: timeout)
    }

    /// Subscribes to the first value, fulfilling `outcome` with it, `.success(nil)` or the error.
    private func subscribeFirst(_ outcome: Outcome<Result<Value?, Failure>>) -> Disposable {
        take(1).subscribe(
            next: { outcome.fulfill(.success($0)) },
            error: { outcome.fulfill(.failure($0)) },
            completed: { outcome.fulfill(.success(nil)) }
        )
    }

    /// Subscribes to the end, fulfilling `outcome` with `.success` or the error.
    private func subscribeCompletion(_ outcome: Outcome<Result<Void, Failure>>) -> Disposable {
        subscribe(
            error: { outcome.fulfill(.failure($0)) },
            completed: { outcome.fulfill(.success(())) }
        )
    }
}

/// The values collected so far; touched only by one subscription's callbacks, one at a time.
private final class Collected<Value>: @unchecked Sendable {
    var values: [Value] = []
}

/// The answer a blocking form waits for: set once, by whichever callback comes first.
private final class Outcome<Answer>: @unchecked Sendable {
    private let answer = Lock<Answer?>(nil)
    /// Whether a callback has come with the answer; only the first sets it.
    private let claimed = Atomic<Bool>(false)
    private let fulfilled = DispatchSemaphore(value: 0)
    /// Whether the answer is taken only once a main-queue block queued when it came has run.
    private let throughMainQueue: Bool
    /// Set by that block.
    private let delivered = Atomic<Bool>(false)

    /// - Parameter throughMainQueue: Whether ``runRunLoop(timeout:)`` takes the answer only once
    ///   the main queue has run what was queued before it came, as RAC 2.5's
    ///   `deliverOn:RACScheduler.mainThreadScheduler` does; for a wait on the main thread.
    init(throughMainQueue: Bool = false) {
        self.throughMainQueue = throughMainQueue
    }

    /// The answer, if it has come.
    var value: Answer? {
        answer.withLock { $0 }
    }

    /// Sets the answer, unless it was set already, and wakes the waiting thread.
    func fulfill(_ value: Answer) {
        guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        // Queued before the answer is set: whoever sees the answer finds the block queued.
        if throughMainQueue { DispatchQueue.main.async { self.delivered.store(true, ordering: .releasing) } }
        answer.withLock { $0 = value }
        fulfilled.signal()
    }

    /// Blocks until the answer comes.
    func wait() -> Answer {
        fulfilled.wait()
        return value!
    }

    /// Runs the current run loop until the answer comes or `timeout` seconds pass; `nil` on
    /// timeout.
    ///
    /// The run loop runs in slices of at most 10 ms, so that an answer from another thread is seen
    /// soon; when it has nothing to run, the thread sleeps until the answer or the slice's end.
    /// Through the main queue, the answer counts once the block queued with it has run; the run
    /// loop runs at least once, and when it has nothing it can run (inside a main-queue block,
    /// whose queue cannot run until that block returns), the answer counts as it is. The timeout
    /// is measured on Dispatch's monotonic clock; one too long for it (infinity) never passes.
    func runRunLoop(timeout: TimeInterval) -> Answer? {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = timeout * 1e9 < Double(UInt64.max - start) ? start + UInt64(timeout * 1e9) : UInt64.max
        let runLoop = RunLoop.current
        var hasRun = false
        while true {
            let value = self.value
            if value != nil, !throughMainQueue || delivered.load(ordering: .acquiring) { return value }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline, hasRun || !throughMainQueue { return value }
            // With the answer in and its main-queue block still to run, the run loop gets a slice
            // even past the deadline: run with a date already past, it may return without looking
            // at the main queue, and the block queued before the call would not have run.
            let awaitingDelivery = value != nil && throughMainQueue
            let remaining = now < deadline ? Double(deadline - now) / 1e9 : 0
            let slice = awaitingDelivery ? 0.01 : min(remaining, 0.01)
            hasRun = true
            if !runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: slice)) {
                if value != nil { return value }
                _ = fulfilled.wait(timeout: .now() + slice)
            }
        }
    }
}

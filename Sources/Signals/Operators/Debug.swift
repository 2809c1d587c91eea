import Disposables
import Foundation
import Schedulers
import Synchronization

extension Signal {
    /// Logs, under `name`, each subscription, every event, and a disposal that ends a
    /// subscription early, each with the thread it happens on; sends every event on unchanged.
    ///
    /// Each line is `<name>: <what> [<where>]`, given to `output` (by default printed to standard
    /// output) on the thread it names:
    ///
    /// ```swift
    /// results.debug("search").subscribe(next: show)
    /// // search: subscribed [main thread]
    /// // search: next(["swift", "swiftui"]) [scheduler com.example.network]
    /// // search: completed [scheduler com.example.network]
    /// ```
    ///
    /// - `<what>` is `subscribed`; `next(<value>)`, `error(<error>)` or `completed`, logged
    ///   just before the event is sent on; or `disposed`, when the subscription is disposed
    ///   before the signal ended (a subscription that ended by its error or completion logs no
    ///   disposal: its resources go with the terminal event).
    /// - `<where>` is `main thread`; else `scheduler <name>` on a thread running a scheduler's
    ///   block (`<name>` is the scheduler's, a queue scheduler's label); else `thread <name>`
    ///   for a named thread; else `thread <address>` of the thread object.
    ///
    /// The lines carry no timestamp, so that they read the same in every run and can be compared
    /// in tests; a logger given as `output` (`os.Logger`, swift-log) adds its own. Each
    /// subscription logs separately: subscribe twice, and both subscriptions' lines appear.
    ///
    /// Other libraries: RxSwift's `debug(_:trimOutput:file:line:function:)` (whose lines carry a
    /// timestamp, and which logs a disposal after every end); ReactiveSwift's
    /// `logEvents(identifier:)`; Combine's `print(_:to:)` and `handleEvents`.
    ///
    /// New; RAC 2.5 has none (its `-logAll` logs the events, without subscription, disposal or
    /// thread, to `NSLog`; here ``logAll()``).
    ///
    /// - Parameters:
    ///   - name: What the lines start with; when empty, the file and line of this call, such as
    ///     `App/SearchModel.swift:42`.
    ///   - file: The file of the call, for an empty `name`; leave the default.
    ///   - line: The line of the call, for an empty `name`; leave the default.
    ///   - output: Where each line goes, without a trailing newline; called on the thread the
    ///     line is about. An event's line is written inside that event's delivery, as a
    ///     subscriber's callback runs (a send from another thread waits for it).
    public func debug(
        _ name: String = "",
        file: StaticString = #fileID,
        line: UInt = #line,
        to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal {
        let label = name.isEmpty ? "\(file):\(line)" : name
        let log: @Sendable (String) -> Void = { what in output("\(label): \(what) [\(currentThreadForDebug())]") }
        return Signal.serialized { subscriber in
            log("subscribed")
            // The flag, not the sink, is what the disposal action holds: the sink holds the
            // subscriber, whose disposable holds the action, and a cycle would keep a
            // subscription that everyone let go of alive.
            let ended = DebugEnd()
            subscriber.disposable.add(Disposable {
                if ended.claim(.disposed) { log("disposed") }
            })
            subscriber.disposable.add(self.attachSink(DebugSink(subscriber, log: log, ended: ended)))
        }.named(derivedName("-debug: \(label)"))
    }
}

/// Where a `debug` line happens: the main thread, a scheduler's block, or another thread, by
/// name when it has one.
private func currentThreadForDebug() -> String {
    if Thread.isMainThread { return "main thread" }
    if let scheduler = Scheduler.current { return "scheduler \(scheduler.name)" }
    if let name = Thread.current.name, !name.isEmpty, name != inheritedThreadName { return "thread \(name)" }
    return "thread \(Unmanaged.passUnretained(Thread.current).toOpaque())"
}

/// The name a thread that was never named reports: on Linux, the process's, as the kernel keeps
/// it (15 bytes at most), which tells threads no more apart than no name; elsewhere, none.
private let inheritedThreadName: String? = {
    #if os(Linux)
    String(decoding: ProcessInfo.processInfo.processName.utf8.prefix(15), as: UTF8.self)
    #else
    nil
    #endif
}()

/// Logs each event of the source, then sends it on to the `debug` subscription's subscriber.
private final class DebugSink<Value, Failure: Error>: PassthroughSubscriberSink<Value, Value, Failure>, @unchecked Sendable {
    private let log: @Sendable (String) -> Void
    private let ended: DebugEnd

    init(_ output: Subscriber<Value, Failure>, log: @escaping @Sendable (String) -> Void, ended: DebugEnd) {
        self.log = log
        self.ended = ended
        super.init(output)
    }

    override func receive(_ value: Value) {
        // The line is made first: the value's description is user code, which may dispose the
        // subscription, and then the value is neither logged after "disposed" nor sent on. A
        // value racing a disposal from another thread is not sent on either.
        let line = "next(\(value))"
        guard !output.isDisposed else { return }
        log(line)
        output.sendNext(value)
    }

    override func receive(error: Failure) {
        // Made first, as a value's line is: the error's description may dispose the subscription.
        let line = "error(\(error))"
        // Either this line or "disposed" is logged, never both, whichever thread comes first.
        guard !output.isDisposed, ended.claim(.ended) else { return }
        log(line)
        output.sendError(error)
    }

    override func receiveCompleted() {
        guard !output.isDisposed, ended.claim(.ended) else { return }
        log("completed")
        output.sendCompleted()
    }
}

/// How a `debug` subscription ended: by its source's error or completion, or by a disposal.
/// Only the first is logged: the disposal that follows an error or completion only releases
/// resources, and an error or completion racing a disposal from another thread is not sent on.
private final class DebugEnd: Sendable {
    enum Kind: UInt8 {
        case ended = 1
        case disposed = 2
    }

    private let state = Atomic<UInt8>(0)

    /// Whether the subscription ends this way, rather than having ended already.
    func claim(_ kind: Kind) -> Bool {
        state.compareExchange(expected: 0, desired: kind.rawValue, ordering: .acquiringAndReleasing).exchanged
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Disposables
import Foundation
import Synchronization

/// The registry behind ``SignalDiagnostics/liveSubscriptions``: one entry for each subscription
/// made through a public `subscribe` entry point while ``SignalDiagnostics/isTrackingSubscriptions``
/// was on, from when it is made until its closures (or its subscriber) are let go of.
///
/// Nothing here holds a subscription. A subscription that is tracked carries a ``Record`` where it
/// keeps what the user gave it: captured by the `completed` closure of a ``ClosureSink`` (let go
/// of, with the other closures, by the terminal event, by cancellation and when the sink is
/// freed), or kept by the subscription's compound disposable for a subscriber (let go of when it is
/// disposed or freed). The record's deinit takes the entry out, so an entry lasts exactly as long
/// as what the subscription could keep alive, and the listing holds nothing of the subscription's.
///
/// Off, the cost is one relaxed load of ``state`` per subscription, made before the sink is built
/// (an untracked one is built as it always was), and nothing at all per value.
@usableFromInline
package enum SubscriptionTracking {
    /// 0 until the environment variable was read, then ``off`` or ``on``. A constant-initialized
    /// global, so reading it costs a load, not a lazy initialization's check.
    @usableFromInline static let state = Atomic<Int>(0)
    @inlinable static var off: Int { 1 }
    private static var on: Int { 2 }

    /// The environment variable that turns tracking on from the start of the process.
    package static let environmentVariable = "REACTIVECOCOA_TRACK_SUBSCRIPTIONS"

    /// Whether the environment asks for tracking: set and neither empty nor `0`. Read once, with
    /// `getenv`: `ProcessInfo.environment` copies the whole environment each time.
    static let environmentAsksForTracking: Bool = {
        guard let value = getenv(environmentVariable) else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Whether a subscription being made may have to be recorded: `false` only once tracking is
    /// known to be off. The one check of the subscribe path, inlined where `subscribe` is, so
    /// that an untracked subscription builds its sink exactly as before.
    @inlinable @inline(__always)
    package static var mayRecord: Bool {
        state.load(ordering: .relaxed) != off
    }

    /// Whether tracking is on, reading the environment variable the first time.
    package static var isOn: Bool {
        get {
            let current = state.load(ordering: .relaxed)
            if current != 0 { return current == on }
            let initial = environmentAsksForTracking ? on : off
            // Another thread may have read it, or a setter run, meanwhile: theirs stands.
            let (exchanged, found) = state.compareExchange(expected: 0, desired: initial, ordering: .relaxed)
            return (exchanged ? initial : found) == on
        }
        set {
            state.store(newValue ? on : off, ordering: .relaxed)
            SignalDebug.keepNamesForTracking(newValue)
        }
    }

    /// One tracked subscription, carried by it; its deinit takes its entry out of the registry.
    package final class Record: @unchecked Sendable {
        deinit {
            SubscriptionTracking.remove(ObjectIdentifier(self))
        }
    }

    /// What the registry keeps of a tracked subscription: nothing of the subscription itself.
    private struct Entry {
        let name: String?
        let signalType: Any.Type
        let file: StaticString
        let line: UInt
        let sequence: Int
        let date: Date
        let isMainThread: Bool
    }

    private struct Registry {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sequence = 0
    }

    private static let registry = Lock(Registry())

    /// A record for a subscription to `signal` made at `file`:`line`, registered, or `nil` when
    /// tracking is off. Out of line: the subscribe path only calls it once ``mayRecord`` said so.
    @inline(never)
    package static func record(of signal: AnyObject, file: StaticString, line: UInt) -> Record? {
        guard isOn, !isLibraryFile(file) else { return nil }
        // The name was built when the operator made the signal (names are kept while tracking is
        // on); looking it up is all that is done here, and only while tracking.
        let name = SignalDebug.name(of: signal)
        let record = Record()
        let signalType: Any.Type = type(of: signal)
        let date = Date()
        let isMainThread = Thread.isMainThread
        registry.withLock { registry in
            registry.sequence += 1
            registry.entries[ObjectIdentifier(record)] = Entry(
                name: name, signalType: signalType, file: file, line: line,
                sequence: registry.sequence, date: date, isMainThread: isMainThread
            )
        }
        return record
    }

    /// The modules of this library, as `#fileID` starts with them: a subscription that the
    /// library's own code makes (`share()` to its source, `Property(initial:then:)`, `first()`)
    /// is not the user's and is not listed. No user's module can have one of these names and use
    /// the library: it could not import the module of its own name.
    private static let libraryModules = ["Tuples/", "Disposables/", "Schedulers/", "Signals/", "Sequences/", "Subjects/", "Command/", "ReactiveCocoaSwift/"]

    /// Whether `file` (a `#fileID`, `Module/File.swift`) is a file of this library.
    private static func isLibraryFile(_ file: StaticString) -> Bool {
        let path = file.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        return libraryModules.contains { path.hasPrefix($0) }
    }

    /// The `completed` closure of a subscription's ``ClosureSink``, carrying `record`: let go of
    /// by the sink when the subscription ends, is cancelled or is freed.
    package static func completed(
        _ completed: (@Sendable () -> Void)?,
        carrying record: Record
    ) -> @Sendable () -> Void {
        if let completed {
            return { withExtendedLifetime(record) {}; completed() }
        }
        return { withExtendedLifetime(record) {} }
    }

    private static func remove(_ identity: ObjectIdentifier) {
        // The entry holds only strings and values: dropping it runs no deinit of the user's.
        let removed = registry.withLock { $0.entries.removeValue(forKey: identity) }
        _ = removed
    }

    /// The entries alive now, oldest first.
    package static var live: [SignalDiagnostics.LiveSubscription] {
        let entries = registry.withLock { Array($0.entries.values) }
        return entries.sorted { $0.sequence < $1.sequence }.map { entry in
            SignalDiagnostics.LiveSubscription(
                name: entry.name,
                signalType: String(describing: entry.signalType),
                file: entry.file.description,
                line: entry.line,
                sequence: entry.sequence,
                date: entry.date,
                isMainThread: entry.isMainThread
            )
        }
    }
}

import Foundation
import Disposables

extension Signal {
    /// Writes a line to ``SignalLog/sink`` for each event, then sends it on.
    ///
    /// The lines are those of ``logNext()``, ``logError()`` and ``logCompleted()``; each names
    /// this signal by its type and address, and by its name when it has one:
    ///
    /// ```swift
    /// numbers.logAll().subscribe()
    /// // <Signal<Int, Never>: 0x0000600000c04000> next: 1
    /// // <Signal<Int, Never>: 0x0000600000c04000> completed
    /// numbers.named("numbers").logAll().subscribe()   // with SignalDebug.isEnabled
    /// // <Signal<Int, Never>: 0x0000600000c04000> name: numbers next: 1
    /// ```
    ///
    /// The result keeps this signal's name.
    ///
    /// RAC 2.5: `-logAll`.
    public func logAll() -> Signal {
        sideEffects(
            next: { [self] value in SignalLog.write("\(logDescription) next: \(value)") },
            error: { [self] error in SignalLog.write("\(logDescription) error: \(error)") },
            completed: { [self] in SignalLog.write("\(logDescription) completed") }
        ).keepingName(of: self)
    }

    /// Writes `<signal> next: <value>` to ``SignalLog/sink`` for each value, then sends it on.
    ///
    /// `<signal>` is `<Type: address>`, followed by ` name: <name>` when the signal has a name
    /// (see ``named(_:)``). The result keeps this signal's name.
    ///
    /// RAC 2.5: `-logNext`.
    public func logNext() -> Signal {
        sideEffects(next: { [self] value in SignalLog.write("\(logDescription) next: \(value)") }).keepingName(of: self)
    }

    /// Writes `<signal> error: <error>` to ``SignalLog/sink`` when this signal fails, then sends
    /// the error on.
    ///
    /// The result keeps this signal's name.
    ///
    /// RAC 2.5: `-logError`.
    public func logError() -> Signal {
        sideEffects(error: { [self] error in SignalLog.write("\(logDescription) error: \(error)") }).keepingName(of: self)
    }

    /// Writes `<signal> completed` to ``SignalLog/sink`` when this signal completes, then sends
    /// completion on.
    ///
    /// The result keeps this signal's name.
    ///
    /// RAC 2.5: `-logCompleted`.
    public func logCompleted() -> Signal {
        sideEffects(completed: { [self] in SignalLog.write("\(logDescription) completed") }).keepingName(of: self)
    }

    /// How a log line names this signal: `<Type: address>`, then ` name: <name>` when it has one,
    /// as RAC 2.5's `-description` does.
    private var logDescription: String {
        let identity = "<\(type(of: self)): \(Unmanaged.passUnretained(self).toOpaque())>"
        guard let name else { return identity }
        return "\(identity) name: \(name)"
    }

    /// Gives this signal the name of `source`, if it has one.
    private func keepingName(of source: Signal) -> Signal {
        guard let name = source.name else { return self }
        return named(name)
    }
}

/// Where the logging operators (``Signal/logAll()``, ``Signal/logNext()``, ``Signal/logError()``
/// and ``Signal/logCompleted()``) write their lines: standard error, unless replaced.
///
/// ```swift
/// SignalLog.sink = { line in logger.debug("\(line)") }   // into your own logger
/// SignalLog.sink = SignalLog.standardError                // back to the default
/// ```
///
/// RAC 2.5: the logging operators call `NSLog`.
public enum SignalLog {
    /// Writes the line and a newline to standard error: the default ``sink``.
    ///
    /// RAC 2.5: `NSLog`, which also writes to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The sink, in a struct so that the lock's generic value is not a bare closure. `Lock` (not a
    /// bare `Mutex`) so that ThreadSanitizer sees the locking.
    private struct Current {
        var sink: @Sendable (String) -> Void
    }

    private static let current = Lock(Current(sink: standardError))

    /// The function each log line is given to, without a trailing newline.
    ///
    /// It may be read and replaced from any thread; a line being written while it is replaced
    /// goes to the old sink or the new one. It is called on the thread that sends the event,
    /// without any lock of the library held.
    ///
    /// RAC 2.5: none; its logging operators always call `NSLog`.
    public static var sink: @Sendable (String) -> Void {
        get { current.withLock { $0.sink } }
        set { current.withLock { $0.sink = newValue } }
    }

    /// Gives `line` to the current sink.
    static func write(_ line: String) {
        sink(line)
    }
}

import Disposables

extension Signal {
    /// A signal that runs `body` for each subscription and sends what it returns, then completes;
    /// or, when `body` throws, fails with that error.
    ///
    /// Like every created signal, its subscription goes through `Scheduler.subscription`: at
    /// once when a scheduler is current, else on a background scheduler.
    ///
    /// ```swift
    /// Signal<Config, ConfigError>.try { try Config.load(from: path) }
    /// ```
    ///
    /// RAC 2.5: `+try:`.
    public static func `try`(_ body: @escaping @Sendable () throws(Failure) -> Value) -> Signal {
        Signal { subscriber in
            do throws(Failure) {
                subscriber.sendNext(try body())
                subscriber.sendCompleted()
            } catch {
                subscriber.sendError(error)
            }
            return nil
        }.named("+try:")
    }

    /// Sends each value after `body` has accepted it; when `body` throws, disposes this signal and
    /// fails with that error.
    ///
    /// ```swift
    /// records.try { record throws(ValidationError) in try record.validate() }
    /// ```
    ///
    /// RAC 2.5: `-try:`.
    public func `try`(_ body: @escaping @Sendable (Value) throws(Failure) -> Void) -> Signal {
        liftSink { TryMapSink($0) { value throws(Failure) in
            try body(value)
            return value
        } }.named(derivedName("-try:"))
    }

    /// Sends `transform(value)` for each value; when `transform` throws, disposes this signal and
    /// fails with that error.
    ///
    /// ```swift
    /// lines.tryMap { line throws(ParseError) in try Record(parsing: line) }
    /// ```
    ///
    /// RAC 2.5: `-tryMap:`.
    public func tryMap<U>(_ transform: @escaping @Sendable (Value) throws(Failure) -> U) -> Signal<U, Failure> {
        liftSink { TryMapSink($0, transform) }.named(derivedName("-tryMap:"))
    }
}

/// Maps values with a throwing closure; the first error ends the source, then is sent.
private final class TryMapSink<Value, U, Failure: Error>: EndingSink<Value, U, Failure>, @unchecked Sendable {
    private let transform: @Sendable (Value) throws(Failure) -> U

    init(_ downstream: Sink<U, Failure>, _ transform: @escaping @Sendable (Value) throws(Failure) -> U) {
        self.transform = transform
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if isDone { return }
        let result: U
        do throws(Failure) {
            result = try transform(value)
        } catch {
            // As RAC's flattenMap into an error signal: the source goes first, then the error.
            fail(error)
            return
        }
        downstream.receive(result)
    }
}

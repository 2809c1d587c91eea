/// One thing a signal sends: a value, an error, or completion.
///
/// A signal sends `next* (error | completed)?`: any number of values, then at most one terminal
/// event, after which it sends nothing.
///
/// RAC 2.5: `RACEvent`.
public enum Event<Value, Failure: Error> {
    /// A value.
    case next(Value)
    /// A failure; the signal sends nothing after it.
    case error(Failure)
    /// Successful completion; the signal sends nothing after it.
    case completed

    /// Whether this is a terminal event (`error` or `completed`).
    ///
    /// RAC 2.5: `finished`.
    public var isFinished: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a `next` event, else `nil`.
    ///
    /// RAC 2.5: `value`.
    public var value: Value? {
        if case let .next(value) = self { return value }
        return nil
    }

    /// The error of an `error` event, else `nil`.
    ///
    /// RAC 2.5: `error`.
    public var error: Failure? {
        if case let .error(error) = self { return error }
        return nil
    }
}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}
extension Event: Sendable where Value: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
    /// `next(value)`, `error(error)` or `completed`.
    public var description: String {
        switch self {
        case let .next(value): "next(\(value))"
        case let .error(error): "error(\(error))"
        case .completed: "completed"
        }
    }
}

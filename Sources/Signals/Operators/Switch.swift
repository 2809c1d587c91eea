import Disposables

extension Signal {
    /// Sends the values of the case that matches the latest key: each key `keys` sends picks a
    /// signal from `cases` (or `default`), disposes the previous pick's subscription and
    /// subscribes to the new one.
    ///
    /// Every key resubscribes, a key equal to the previous one included. `keys` completing does not
    /// end the current pick: the result completes when both have completed. An error from `keys`
    /// or from the current pick ends the result.
    ///
    /// Switching is monotonic, as in ``switchToLatest()``: once a value of the current pick has
    /// been delivered, no value or error of an earlier pick is, from any thread.
    ///
    /// A key with no case when `default` is `nil` fails the result when that key arrives, with
    /// `SignalError.noMatchingCase` describing the key. That needs a `Failure` that can hold a
    /// ``SignalError`` (`SignalError` itself, or `any Error`); for any other `Failure` an
    /// unmatched key stops the program with a message saying so, so give such a switch a `default`.
    ///
    /// ```swift
    /// Signal.switch(modes, cases: ["list": listItems, "grid": gridItems], default: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - keys: Picks the case to follow.
    ///   - cases: The signal to follow for each key.
    ///   - defaultSignal: The signal to follow for a key that has no case, or `nil`.
    ///
    /// RAC 2.5: `+switch:cases:default:`.
    public static func `switch`<Key: Hashable>(
        _ keys: Signal<Key, Failure>,
        cases: [Key: Signal],
        default defaultSignal: Signal?
    ) -> Signal {
        let choices = SwitchCases(cases: cases, default: defaultSignal)
        return keys.map(choices.signal(for:))
            .switchToLatest()
            .named("+switch: \(keys.name ?? "") cases: \(cases.keys) default: \(defaultSignal?.name ?? "nil")")
    }

    /// Sends the values of `then` while `condition` last sent `true`, and of `else` while it last
    /// sent `false`.
    ///
    /// Each Boolean disposes the previous branch's subscription and subscribes to the chosen
    /// branch, a repeated value included. `condition` completing does not end the current branch:
    /// the result completes when both have completed. An error from `condition` or the current
    /// branch ends the result.
    ///
    /// Switching is monotonic, as in ``switchToLatest()``: once a value of the current branch has
    /// been delivered, no value or error of the branch before it is, from any thread.
    ///
    /// ```swift
    /// Signal.if(isLoggedIn, then: profile, else: loginPrompt)
    /// ```
    ///
    /// RAC 2.5: `+if:then:else:`.
    public static func `if`(_ condition: Signal<Bool, Failure>, then trueSignal: Signal, else falseSignal: Signal) -> Signal {
        condition.map { $0 ? trueSignal : falseSignal }
            .switchToLatest()
            .named("+if: \(condition.name ?? "") then: \(trueSignal.name ?? "") else: \(falseSignal.name ?? "")")
    }
}

/// The cases of a `Signal.switch`: picks the signal for each key.
private final class SwitchCases<Key: Hashable, Value, Failure: Error>: @unchecked Sendable {
    private let cases: [Key: Signal<Value, Failure>]
    private let defaultSignal: Signal<Value, Failure>?

    init(cases: [Key: Signal<Value, Failure>], default defaultSignal: Signal<Value, Failure>?) {
        self.cases = cases
        self.defaultSignal = defaultSignal
    }

    /// The case for `key`, else the default, else a signal that fails with
    /// `SignalError.noMatchingCase`.
    func signal(for key: Key) -> Signal<Value, Failure> {
        if let signal = cases[key] ?? defaultSignal { return signal }
        let description = String(describing: key)
        guard let failure = SignalError.noMatchingCase(description) as? Failure else {
            badInput(
                "Signal.switch(_:cases:default:) has no case for \(description) and no default, and its Failure type \(Failure.self) cannot hold SignalError.noMatchingCase: give it a default"
            )
        }
        return .error(failure)
    }
}

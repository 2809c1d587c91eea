extension Signal {
    /// Sends `value` first, then everything the signal sends.
    ///
    /// RAC 2.5: `-startWith:` (`[[RACSignal return:value] concat:self]`).
    public func startWith(_ value: Value) -> Signal {
        Signal.return(value).concat(self).named(derivedName("-startWith: \(value)"))
    }
}

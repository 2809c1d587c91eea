/// Turns the error that a signal which never fails cannot send into any type: the conversion of
/// the sinks whose source's failure type is `Never` (`promoteError`, `dematerialize`).
func absurd<T>(_ never: Never) -> T {}

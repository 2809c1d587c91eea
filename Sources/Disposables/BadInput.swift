/// Stops the program with `message` when `condition` is false: the library's check of bad input
/// (a negative count, a NaN interval, …). Unlike a `precondition`, whose message Swift drops in
/// optimized builds, the message survives `-O`, so a user of a release build reads which operator
/// refused which value. Every module of the package calls this one check.
///
/// - Parameters:
///   - condition: what the input must satisfy.
///   - message: names the operator and the value, for example
///     `"take(_:) needs a count of zero or more, got -1"`; built only when the check fails.
@inlinable
@inline(__always)
package func checkInput(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if _slowPath(!condition) { badInput(message(), file: file, line: line) }
}

/// Stops the program with `message`, which names the operator and the bad value; see
/// ``checkInput(_:_:file:line:)``. Out of line, so a check costs its callers one branch.
@usableFromInline
@inline(never)
package func badInput(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}

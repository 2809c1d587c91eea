/// Hands `value` back through a call the optimizer cannot see into.
///
/// Baselines pass their closures through it so that each stage stays a real call, as it is in the
/// library, instead of being fused into one loop (Benchmarks/README.md, "The baselines").
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T {
    value
}

/// Somewhere for benchmark closures to put their results, so the work is not optimized away.
final class Sink: @unchecked Sendable {
    var value = 0
}

import Disposables

/// How deeply evaluations may nest: when a node's evaluation turns into a loop, and when nesting
/// that no loop can undo stops before it uses up the thread's stack.
///
/// Evaluating a node of `map` runs the `map`'s step, which evaluates the node it maps, whose step
/// evaluates the node below, and so on: one nested evaluation per operator of the chain, so a
/// hundred thousand nested operators overflowed an 8 MiB stack. Steps now count the nesting
/// (``LazyList/evaluate(nesting:)``); from ``loopFrom`` levels on, a node is evaluated after the
/// chain below it, in a loop (``LazyList/evaluateInALoop(wantsHead:wantsTail:nesting:)``), so an
/// operator chain of any depth needs a bounded stack.
@usableFromInline
enum Nesting {
    /// The nesting from which a node's evaluation first evaluates, in a loop, the chain of nodes it
    /// depends on. Below it, a step evaluates its input by a plain call, which costs nothing
    /// extra for the short chains of everyday use.
    @usableFromInline static let loopFrom = 16

    /// The stack a nested evaluation must leave free: the frames of the steps and blocks that
    /// run until the next check.
    static let reserve = StackCheck.reserve

    /// Stops the program with a message naming `what` (the operator or the blocks being
    /// evaluated) when less than ``reserve`` of this thread's stack is left: the nesting would
    /// overflow it, a crash with no message.
    @usableFromInline
    static func checkStack(_ what: @autoclosure () -> StaticString?) {
        // Only a position on this thread's stack is judged: should a local live elsewhere after
        // all (a sanitizer's fake stack that cannot be mapped back), nothing is known of the stack
        // left.
        guard StackCheck.isLow(reserve: reserve) else { return }
        badInput(
            "LazyList: evaluating \(what().map { "\($0)" } ?? "a list") nests more deeply than this thread's stack allows "
                + "(less than \(reserve / 1024) KiB of it left). Operator chains are evaluated in a loop however deep; "
                + "this nesting comes from blocks that pull other lists inside their own evaluation (head or tail blocks, "
                + "a right fold that looks at its rest, a step that skips from element to element in nested lists). "
                + "Pull such lists in a loop, or run on a thread with a larger stack"
        )
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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
    static let reserve = 64 * 1024

    /// The per-thread lowest address the stack may reach before ``checkStack(_:)`` stops, plus one
    /// (so that no thread's value is `nil`); stored as the slot's pointer, no allocation.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        if status != 0 { fatalError("LazyList: pthread_key_create failed (\(status))") }
        return key
    }()

    /// This thread's stack limit for nested evaluations (see ``reserve``), or 0 when the system
    /// does not tell where the stack ends.
    private static var floor: UInt {
        if let pointer = pthread_getspecific(key) { return UInt(bitPattern: pointer) - 1 }
        let floor = stackBase().map { $0 + UInt(reserve) } ?? 0
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: floor + 1))
        return floor
    }

    /// The lowest address of this thread's stack (stacks grow down on every supported platform).
    private static func stackBase() -> UInt? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        return top - UInt(pthread_get_stacksize_np(thread))
        #else
        var attributes = pthread_attr_t()
        guard let getAttributes = threadAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return UInt(bitPattern: address)
        #endif
    }

    #if !canImport(Darwin)
    /// `pthread_getattr_np`, which the C library has but its Swift module does not show (the C
    /// header declares it for `_GNU_SOURCE` only).
    private static let threadAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
    }()
    #endif

    /// The address of a local of the caller's frame, roughly where the stack stands.
    ///
    /// Under AddressSanitizer, which may keep the frame on a fake stack of its own (to find uses
    /// after return), the local's address says nothing of the thread's stack: the address is then
    /// the real stack's where the fake frame was made, which AddressSanitizer tells.
    @inline(never)
    private static func stackPosition() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { pointer in
            if let fakeStack, let real = fakeStack.realAddress(fakeStack.current(), pointer, nil, nil) {
                return UInt(bitPattern: real)
            }
            return UInt(bitPattern: pointer)
        }
    }

    /// AddressSanitizer's interface to its fake stacks, when the program runs under it.
    private static let fakeStack: FakeStack? = FakeStack()

    private struct FakeStack {
        typealias Current = @convention(c) () -> UnsafeMutableRawPointer?
        typealias RealAddress = @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> UnsafeMutableRawPointer?

        /// `__asan_get_current_fake_stack`: this thread's fake stack, or `nil`.
        let current: Current
        /// `__asan_addr_is_in_fake_stack`: for an address in a fake frame of the given fake stack,
        /// the real stack's address where that frame was made; else `nil`.
        let realAddress: RealAddress

        init?() {
            guard let process = dlopen(nil, RTLD_NOW) else { return nil }
            defer { dlclose(process) }
            guard let current = dlsym(process, "__asan_get_current_fake_stack"),
                  let realAddress = dlsym(process, "__asan_addr_is_in_fake_stack") else { return nil }
            // The types are AddressSanitizer's interface (sanitizer/asan_interface.h), which the
            // runtime that exports these names implements.
            self.current = unsafeBitCast(current, to: Current.self)
            self.realAddress = unsafeBitCast(realAddress, to: RealAddress.self)
        }
    }

    /// Stops the program with a message naming `what` (the operator or the blocks being
    /// evaluated) when less than ``reserve`` of this thread's stack is left: the nesting would
    /// overflow it, a crash with no message.
    @usableFromInline
    static func checkStack(_ what: @autoclosure () -> StaticString?) {
        let floor = floor
        let position = stackPosition()
        // Only a position on this thread's stack, between its base and the floor, is judged: should
        // a local live elsewhere after all (a sanitizer's fake stack that `stackPosition` cannot
        // map back), nothing is known of the stack left.
        guard position < floor, position >= floor &- UInt(reserve) else { return }
        badInput(
            "LazyList: evaluating \(what().map { "\($0)" } ?? "a list") nests more deeply than this thread's stack allows "
                + "(less than \(reserve / 1024) KiB of it left). Operator chains are evaluated in a loop however deep; "
                + "this nesting comes from blocks that pull other lists inside their own evaluation (head or tail blocks, "
                + "a right fold that looks at its rest, a step that skips from element to element in nested lists). "
                + "Pull such lists in a loop, or run on a thread with a larger stack"
        )
    }
}

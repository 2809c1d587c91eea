#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of the calling thread's stack is left: for nesting that no loop can undo (a lazy
/// list's blocks pulling other lists, a signal chain built in a loop subscribing operator by
/// operator, lifetimes ending each other), so that it stops with a message naming what nests
/// before it overflows the stack, which would be a crash with no message at all.
///
/// Each thread's stack bounds are looked up once (with `pthread_getattr_np` on Linux, found with
/// `dlsym` as the C library's Swift module does not show it) and kept in a thread-local slot, so a
/// check costs a `pthread_getspecific`, the address of a local and a comparison. Under
/// AddressSanitizer, which may keep frames on a fake stack of its own, the position is mapped back
/// to the real stack. Where the system does not tell where the stack ends, nothing is ever judged
/// low.
///
/// Stacks grow down on every supported platform.
package enum StackCheck {
    /// What stays free below the floor of ``isLow(reserve:)``'s default and of
    /// ``isInnerSubscriptionLevelWithinShare()``: the frames that run until the next
    /// check, the user's closures at the end of a chain, and the message's own formatting.
    package static let reserve = 64 * 1024

    /// The share of a stack, above ``reserve``, that subscribing a signal chain may use, in
    /// sixteenths: six, three eighths.
    ///
    /// Subscribing an operator chain nests one subscription per operator; what comes after it on
    /// the same thread nests one call per operator again, *on top of* the subscription's frames
    /// when it happens inside it: the sink handed to the innermost source passes the disposable
    /// down the chain (`attach`), and a source that sends at once (`Signal.return`, a property's
    /// current value, a replay) delivers through the whole chain from the bottom of the
    /// subscription. So a chain `n` deep needs `n × (subscribe + deliver)` bytes at worst.
    /// Measured in bytes per level of a `map` chain of `Int`s (x86-64 Linux, Swift 6.3), in debug,
    /// release (`-O`) and ThreadSanitizer builds:
    ///
    /// | per level                          | debug | release | ThreadSanitizer |
    /// |------------------------------------|-------|---------|-----------------|
    /// | subscribing                        |  401  |   112   |       592       |
    /// | delivering a value                 |  148  |    80   |       192       |
    /// | passing the disposable down        |   93  |    30   |       123       |
    /// | releasing the subscription's sinks |  288  |   128   |       336       |
    ///
    /// Delivering through a `map` takes less than subscribing, but through an operator that keeps
    /// the last value (`scan`, `distinctUntilChanged`, `combinePrevious`) up to about 150 bytes a
    /// level in a release build, 1.4 times subscribing (with half of the stack for the
    /// subscription, as this check first allowed, 1,725 to 2,000 `scan`s over `Signal.return` on a 512 KiB thread crashed with
    /// no message). So a subscription stops at three eighths, and leaves 1.67 times as much for
    /// what follows: room for more levels of any delivery, `attach` or release than it made.
    /// Values larger than ``smallValueSize`` bytes, copied into every level's frame as they are
    /// delivered, set aside more for each level that carries them (``extraForValues(ofSize:)``).
    /// AddressSanitizer's frames are larger still, and partly on its fake stack, which the check
    /// maps back to the real one; a test subscribes, delivers through and lets go of a chain just
    /// short of the limit in every build, sanitizers included, and another sweeps the depths of
    /// the shapes whose deliveries nest deepest, in a child process, for a bare crash.
    ///
    /// Only the thread that subscribes is judged: a chain subscribed on a thread with a large
    /// stack (an 8 MiB main thread) and sent to from a thread with a smaller one (512 KiB) can still
    /// overflow that thread's stack while delivering, unchecked (a check per value would cost every
    /// value). The share is of what is left where the chain's outermost subscription started (a
    /// `subscribe` from the app, or an inner signal of `flatMap` subscribed during a send with no
    /// subscription under way), so the app's own frames above it do not count.
    package static let chainShareInSixteenths = 6

    /// Whether less than `reserve` bytes of this thread's stack are left below the caller.
    @inline(__always)
    package static func isLow(reserve: Int = StackCheck.reserve) -> Bool {
        let limits = Limits.current
        guard limits.pointee.known else { return false }
        let position = position(limits)
        return position < limits.pointee.base &+ UInt(reserve) && position >= limits.pointee.base
    }

    /// What a chain's share assumes delivering a value takes at each level, in a release build:
    /// `deliveryFrame` plus `copiesPerLevel` times the value's size. A `map` takes about 72 + the
    /// size (80 for an `Int`, 576 for a 504-byte struct), an operator that keeps the last value
    /// (`scan`, `distinctUntilChanged`, `combinePrevious`) up to about 150 + 3 times the size;
    /// subscribing takes 112 a level. The share (``chainShareInSixteenths``) covers values of up
    /// to ``smallValueSize`` bytes; a level with larger ones sets aside the rest
    /// (``extraForValues(ofSize:)``) for as long as its subscription is under way.
    static let deliveryFrame = 160
    static let copiesPerLevel = 3

    /// The largest values, in bytes, that a chain's share covers as it is.
    package static let smallValueSize = 8

    /// What a level whose values take `size` bytes sets aside of the chain's share, beyond the
    /// subscription's own frames: what delivering them takes more than the share assumes
    /// (`deliveryFrame + copiesPerLevel × size`, against what `smallValueSize` bytes take),
    /// counted in the share's units, where 6 bytes of the share stand for 16 of the stack.
    static func extraForValues(ofSize size: Int) -> UInt {
        guard size > smallValueSize else { return 0 }
        let beyond = copiesPerLevel * (size - smallValueSize)
        return UInt(beyond) / 16 * UInt(chainShareInSixteenths)
    }

    /// Whether one level of a signal chain's subscription (an operator subscribing its source),
    /// whose values take at most ``smallValueSize`` bytes, is an inner one within the chain's
    /// share of this thread's stack (``chainShareInSixteenths`` of what lay above ``reserve``
    /// where the outermost level began, less what levels with larger values under way set aside):
    /// then it has nothing more to do. When not, it is the outermost level, or one past the share,
    /// and goes on with ``beginSubscriptionLevel(valueSize:sendsMayWait:)``, which tells which; so
    /// does a level with larger values.
    ///
    /// One thread-local lookup a level, and a `Bool`, so that the frame each level of a chain
    /// adds to the stack stays small (a debug build's grew by 48 bytes a level when this returned
    /// more, and a release build's by 16 when it took the values' size).
    package static func isInnerSubscriptionLevelWithinShare() -> Bool {
        let limits = Limits.current
        guard limits.pointee.isSubscribing else { return false }
        guard limits.pointee.known else { return true }
        let position = position(limits)
        return position >= limits.pointee.chainFloor &+ limits.pointee.setAside || position < limits.pointee.base
    }

    /// One level of a signal chain's subscription: see ``beginSubscriptionLevel(valueSize:sendsMayWait:)``.
    package struct SubscriptionLevel {
        /// The thread's limits, when the level changed them (the outermost one, or one that set
        /// some of the share aside).
        fileprivate var limits: UnsafeMutablePointer<Limits>?
        fileprivate var isOutermost = false
        /// What this level set aside of the chain's share, for values larger than ``smallValueSize``.
        fileprivate var setAside: UInt = 0

        /// Whether the chain has used more than its share of the stack here: the subscription
        /// must stop with a message, as what follows it through the chain may not fit.
        package private(set) var isTooDeep = false

        fileprivate static var tooDeep: SubscriptionLevel {
            var level = SubscriptionLevel()
            level.isTooDeep = true
            return level
        }
    }

    /// Begins one level of a signal chain's subscription: an inner level within the chain's share
    /// (see ``isInnerSubscriptionLevelWithinShare()``), one past it
    /// (``SubscriptionLevel/isTooDeep``), or the outermost level (no subscription under way on
    /// this thread: a `subscribe` from the app, or an inner signal subscribed during a delivery).
    /// The outermost level counts the chain's share from its own position, not from the top of
    /// the stack, so a short chain subscribed deep in the app's own recursion is judged by the
    /// stack it uses itself, and marks the thread as subscribing (``isSubscribing``). A level
    /// whose values take more than ``smallValueSize`` bytes (`valueSize`) sets aside what
    /// delivering them takes beyond what the share assumes, until it ends. End every level with
    /// ``endSubscriptionLevel(_:)``.
    ///
    /// - Parameter sendsMayWait: What ``isSubscribingWhereSendsNeverWait`` tells meanwhile, when
    ///   this is the outermost level: for the Signals module, whether a send made inside this
    ///   subscription may wait at a subject's bound (a subscription the library makes from a
    ///   scheduled block of its own) or not (one the app makes, which never waits).
    package static func beginSubscriptionLevel(valueSize: Int, sendsMayWait: Bool = false) -> SubscriptionLevel {
        let limits = Limits.current
        let extra = extraForValues(ofSize: valueSize)
        if limits.pointee.isSubscribing {
            guard limits.pointee.known else { return SubscriptionLevel() }
            let position = position(limits)
            if position < limits.pointee.base { return SubscriptionLevel() }
            let floor = limits.pointee.chainFloor &+ limits.pointee.setAside &+ extra
            guard position >= floor else { return .tooDeep }
            guard extra > 0 else { return SubscriptionLevel() }
            limits.pointee.setAside &+= extra
            return SubscriptionLevel(limits: limits, setAside: extra)
        }
        guard beginOutermost(limits, setAside: extra, sendsMayWait: sendsMayWait) else { return .tooDeep }
        return SubscriptionLevel(limits: limits, isOutermost: true, setAside: extra)
    }

    /// Marks the thread as subscribing and counts the chain's share from here, with `setAside`
    /// of it set aside; `false`, changing nothing, when the share would not hold that much (less
    /// than the reserve left, or values too large to deliver on what is left).
    @inline(__always)
    private static func beginOutermost(_ limits: UnsafeMutablePointer<Limits>, setAside: UInt, sendsMayWait: Bool) -> Bool {
        let position = position(limits)
        if limits.pointee.known, position >= limits.pointee.base, position <= limits.pointee.top {
            guard position > limits.pointee.base &+ UInt(reserve) else { return false }
            let above = position - limits.pointee.base - UInt(reserve)
            let share = above / 16 * UInt(chainShareInSixteenths)
            guard setAside < share else { return false }
            limits.pointee.chainFloor = position - share
            limits.pointee.setAside = setAside
        } else {
            // Nothing is judged: no floor (a stale one would judge this chain by another's).
            limits.pointee.chainFloor = 0
            limits.pointee.setAside = 0
        }
        limits.pointee.isSubscribing = true
        limits.pointee.subscriptionSendsMayWait = sendsMayWait
        return true
    }

    /// ``beginSubscriptionLevel(valueSize:sendsMayWait:)`` for a level that sends values of at
    /// most ``smallValueSize`` bytes at once and subscribes nothing itself (`Signal.return`,
    /// `empty`, `error`), when a scheduler is current, in one word, for the subscription that is
    /// the whole of `signal.churn`: 0 for an inner level within the share, else the outermost
    /// level's limits, to hand to ``endConstantLevel(_:)``; `nil`, beginning nothing, when the
    /// subscription must take the general path (``beginSubscriptionLevel(valueSize:sendsMayWait:)``):
    /// no scheduler is set on this thread (``ThreadState/currentScheduler``), the values are
    /// larger, or the level is past the share, which the general path stops at with its message.
    /// One thread-local lookup answers all of it. (The general path costs that subscription about
    /// 100 instructions more, and a lookup of its own for the scheduler 30.)
    package static func beginConstantLevel(valueSize: Int) -> UInt? {
        let limits = Limits.current
        guard limits.pointee.currentScheduler != nil, valueSize <= smallValueSize else { return nil }
        if limits.pointee.isSubscribing {
            guard limits.pointee.known else { return 0 }
            let position = position(limits)
            return position >= limits.pointee.chainFloor &+ limits.pointee.setAside || position < limits.pointee.base ? 0 : nil
        }
        guard beginOutermost(limits, setAside: 0, sendsMayWait: false) else { return nil }
        return UInt(bitPattern: limits)
    }

    /// Ends a level begun with ``beginConstantLevel(valueSize:)``.
    @inline(__always)
    package static func endConstantLevel(_ level: UInt) {
        guard level != 0 else { return }
        UnsafeMutablePointer<Limits>(bitPattern: level)?.pointee.isSubscribing = false
    }

    /// Ends a level begun with ``beginSubscriptionLevel(valueSize:sendsMayWait:)``: gives back
    /// what it set aside, and the outermost one clears the thread's mark.
    @inline(__always)
    package static func endSubscriptionLevel(_ level: SubscriptionLevel) {
        guard let limits = level.limits else { return }
        if level.isOutermost {
            limits.pointee.isSubscribing = false
            limits.pointee.setAside = 0
        } else {
            limits.pointee.setAside &-= level.setAside
        }
    }

    /// Whether a signal chain's subscription is under way on this thread, further up its stack
    /// (see ``beginSubscriptionLevel(valueSize:sendsMayWait:)``).
    package static var isSubscribing: Bool {
        Limits.current.pointee.isSubscribing
    }

    /// Whether a signal chain's subscription is under way on this thread, begun with
    /// `sendsMayWait: false` (see ``beginSubscriptionLevel(valueSize:sendsMayWait:)``).
    package static var isSubscribingWhereSendsNeverWait: Bool {
        let limits = Limits.current
        return limits.pointee.isSubscribing && !limits.pointee.subscriptionSendsMayWait
    }

    /// How many bytes of this thread's stack are in use above the caller, and the stack's size,
    /// for messages; `nil` when the system does not tell.
    package static func usage() -> (used: Int, size: Int)? {
        let limits = Limits.current
        guard limits.pointee.known else { return nil }
        let position = position(limits)
        guard position >= limits.pointee.base, position <= limits.pointee.top else { return nil }
        return (Int(limits.pointee.top - position), Int(limits.pointee.top - limits.pointee.base))
    }

    /// How much of this thread's stack is used and how much a chain may use, in KiB, for a
    /// message: "X KiB of its Y KiB used, Z KiB allowed".
    package static func chainUsageDescription(valueSize: Int) -> String {
        let limits = Limits.current
        guard let (used, size) = usage() else { return "the stack's size is unknown" }
        let allowed = Int(limits.pointee.top &- limits.pointee.chainFloor)
        let setAside = limits.pointee.setAside &+ extraForValues(ofSize: valueSize)
        let values = setAside == 0 ? ""
            : ", less \(setAside / 1024) KiB set aside for delivering values larger than \(smallValueSize) bytes, which every level copies"
        return "\(used / 1024) KiB of its \(size / 1024) KiB stack used; a subscription may use \(allowed / 1024) KiB\(values)"
    }

    /// Roughly where the stack stands in the caller's frame: the address of a local, or under
    /// AddressSanitizer, when that local lives on its fake stack, the real stack's address where
    /// the fake frame was made.
    @inline(__always)
    private static func position(_ limits: UnsafeMutablePointer<Limits>) -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { pointer in
            let address = UInt(bitPattern: pointer)
            if _slowPath(limits.pointee.mayUseFakeStack) { return realPosition(address, pointer) }
            return address
        }
    }

    @inline(never)
    private static func realPosition(_ address: UInt, _ pointer: UnsafeMutableRawPointer) -> UInt {
        if let fakeStack, let real = fakeStack.realAddress(fakeStack.current(), pointer, nil, nil) {
            return UInt(bitPattern: real)
        }
        return address
    }

    /// A thread's stack bounds and the state of a chain's subscription under way, made on the
    /// thread's first check and freed when it exits; touched by its own thread only.
    package struct Limits {
        /// Whether the system told the bounds; when not, nothing is judged low.
        var known = false
        /// Whether AddressSanitizer runs, whose fake stack a local may live on.
        var mayUseFakeStack = false
        /// The stack's lowest address.
        var base: UInt = 0
        /// The stack's highest address.
        var top: UInt = 0
        /// The lowest address a chain's subscription may reach, set by its outermost level, before
        /// what is set aside (``isInnerSubscriptionLevelWithinShare()``).
        var chainFloor: UInt = 0
        /// What the levels under way set aside of the chain's share for delivering values larger
        /// than ``smallValueSize`` (``extraForValues(ofSize:)``): the floor is that much higher.
        var setAside: UInt = 0
        /// Whether a chain's subscription is under way on this thread (``isSubscribing``).
        var isSubscribing = false
        /// What the outermost level of the subscription under way was begun with
        /// (``beginSubscriptionLevel(valueSize:sendsMayWait:)``).
        var subscriptionSendsMayWait = false
        /// ``ThreadState/currentScheduler``, kept here so that one lookup finds it and the limits.
        var currentScheduler: UnsafeMutableRawPointer?

        @inline(__always)
        fileprivate static var current: UnsafeMutablePointer<Limits> {
            if let pointer = pthread_getspecific(slot.key) {
                return pointer.assumingMemoryBound(to: Limits.self)
            }
            return makeCurrent()
        }

        @inline(never)
        private static func makeCurrent() -> UnsafeMutablePointer<Limits> {
            var limits = Limits()
            if let (base, top) = stackBounds(), top > base &+ UInt(reserve) {
                limits.known = true
                limits.base = base
                limits.top = top
            }
            limits.mayUseFakeStack = fakeStack != nil
            let pointer = UnsafeMutablePointer<Limits>.allocate(capacity: 1)
            pointer.initialize(to: limits)
            pthread_setspecific(slot.key, pointer)
            return pointer
        }

        fileprivate static func free(_ pointer: UnsafeMutableRawPointer?) {
            guard let pointer else { return }
            let limits = pointer.assumingMemoryBound(to: Limits.self)
            limits.deinitialize(count: 1)
            limits.deallocate()
        }

        private static let slot = ThreadLocalKey("StackCheck") { pointer in Limits.free(pointer) }
    }

    /// The lowest and highest addresses of this thread's stack.
    private static func stackBounds() -> (base: UInt, top: UInt)? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        return (top - UInt(pthread_get_stacksize_np(thread)), top)
        #else
        var attributes = pthread_attr_t()
        guard let getAttributes = threadAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return (UInt(bitPattern: address), UInt(bitPattern: address) + UInt(size))
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
}

/// What the library keeps for each thread besides the stack limits, in the same thread-local
/// slot: one `pthread_getspecific` finds all of it, which is what a `Signal.return` subscription
/// needs (is a scheduler current, and how deep is the chain).
@usableFromInline
package enum ThreadState {
    /// The scheduler current on this thread (the Schedulers module's `Scheduler.current`), as an
    /// unretained reference: whoever sets it keeps the object alive until it sets the previous
    /// value back (`performAsCurrentScheduler`), or for good (the main scheduler). `nil` when none
    /// is set.
    @usableFromInline
    package static var currentScheduler: UnsafeMutableRawPointer? {
        get { StackCheck.Limits.current.pointee.currentScheduler }
        set { StackCheck.Limits.current.pointee.currentScheduler = newValue }
    }
}

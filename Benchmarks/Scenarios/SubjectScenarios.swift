import Dispatch
import Disposables
import Foundation
import Signals
import Subjects
import Synchronization

/// The hot signals of the Subjects module: one subject out to many subscribers, a replay to late
/// subscribers, subscribe/dispose cycles on an autoconnecting multicast and on a reconnecting
/// `share()`, and on a subject that another thread floods.
func subjectScenarios() -> [Scenario] { [
    fanoutScenario(name: "subject.fanout") {
        let subject = Subject<Int, Never>()
        return (subject, subject.sendNext)
    },
    Scenario(
        name: "subject.replay",
        operations: 1_000_000,
        ours: { count in
            let sink = Sink()
            let subject = ReplaySubject<Int, Never>()
            for value in 0..<max(1, count / lateSubscribers) { subject.sendNext(value) }
            for _ in 0..<lateSubscribers { subject.subscribe(next: { sink.value &+= $0 }) }
        },
        baseline: { count in
            let sink = Sink()
            let append: (inout [Int], Int) -> Void = opaque { $0.append($1) }
            var buffer: [Int] = []
            for value in 0..<max(1, count / lateSubscribers) { append(&buffer, value) }
            for _ in 0..<lateSubscribers {
                let subscriber: (Int) -> Void = opaque { sink.value &+= $0 }
                for value in buffer { subscriber(value) }
            }
        }
    ),
    multicastCycleScenario(name: "multicast.autoconnect") { Signal<Int, Never>.never.publish().autoconnect() },
    // The same cycles through `share()`, which connects again for each: a fresh subject and a
    // subscription to the source per cycle, where `autoconnect()` subscribed the source on the
    // first cycle only (the baseline reconnects each time, as `share()` does).
    multicastCycleScenario(name: "multicast.share") { Signal<Int, Never>.never.share() },
    // Targets: ours' median dispose within 3x the baseline's; its longest dispose under 1 ms; its
    // peak memory flat in the flood's length (the same with BENCHMARKS_FLOOD_CYCLES=40000 as with
    // the default 10,000).
    Scenario(name: "subject.flood-dispose", operations: floodCycles(quick: false), measuring: floodDispose),
    // Target: the peak memory's growth the same at both sizes (flat in the number of values).
    forwardFloodScenario(name: "subject.forward-flood-200k", operations: 200_000),
    forwardFloodScenario(name: "subject.forward-flood-800k", operations: 800_000),
] }

// MARK: - subject.forward-flood

/// How many threads `subject.forward-flood` sends from, each into a pipe of its own.
private let forwardingSenders = 4

/// Four threads each send `count / 4` values into a pipe of their own whose callback forwards them
/// into one `Subject`, whose one subscriber is slower than the senders: a send from inside a
/// callback does not wait there, so what it queues beyond the subject's bound is paid for once
/// its pipe's `sendNext` is over. The figure that matters is the peak memory's growth, which must
/// be the same at both sizes. The baseline: the same threads call the same slow consumer under
/// one `Mutex`, as a RAC 2.5 `@synchronized` subscriber would be called.
private func forwardFloodScenario(name: String, operations: Int) -> Scenario {
    Scenario(name: name, operations: operations, prepareOurs: prepareForwardFlood, prepareBaseline: prepareBaselineForwardFlood)
}

private func prepareForwardFlood(_ count: Int) -> () -> Void {
    let consumer = SlowConsumer()
    let subject = Subject<Int, Never>()
    subject.subscribe(next: { consumer.consume($0) })
    var inputs: [Subscriber<Int, Never>] = []
    for _ in 0..<forwardingSenders {
        let (output, input) = Signal<Int, Never>.pipe()
        output.subscribe(next: { subject.sendNext($0) })
        inputs.append(input)
    }
    let senders = inputs
    let total = forwardedCount(count)
    return {
        runForwardingSenders(count) { sender, value in senders[sender].sendNext(value) }
        // The senders have returned; the last deliverer may still be delivering what is queued.
        while consumer.received.load(ordering: .acquiring) < total { sched_yield() }
    }
}

private func prepareBaselineForwardFlood(_ count: Int) -> () -> Void {
    let consumer = LockedConsumer()
    let consume: @Sendable (Int) -> Void = { consumer.consume($0) }
    let forward = opaque(consume)
    return {
        runForwardingSenders(count) { _, value in forward(value) }
    }
}

/// The baseline's consumer: the same slow work, under one `Mutex`.
private final class LockedConsumer: Sendable {
    private let lock = Mutex(SlowConsumer())

    func consume(_ value: Int) {
        lock.withLock { $0.consume(value) }
    }
}

/// The values `count` asks for, rounded down to a multiple of the senders.
private func forwardedCount(_ count: Int) -> Int {
    max(1, count / forwardingSenders) * forwardingSenders
}

/// Runs `send(sender, value)` for each sender's share of `count` values, on a thread per sender,
/// and returns once every thread has.
private func runForwardingSenders(_ count: Int, _ send: @escaping @Sendable (Int, Int) -> Void) {
    let perSender = forwardedCount(count) / forwardingSenders
    let group = DispatchGroup()
    for sender in 0..<forwardingSenders {
        group.enter()
        let thread = Thread {
            for value in 0..<perSender { send(sender, value) }
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// A subscriber slower than the senders: a few hundred nanoseconds of work a value.
private final class SlowConsumer: @unchecked Sendable {
    let received = Atomic<Int>(0)
    private var total = 0

    func consume(_ value: Int) {
        var work = value
        for round in 0..<200 { work = opaque(work &* 31 &+ round) }
        total &+= work
        received.add(1, ordering: .releasing)
    }
}

/// How many late subscribers `subject.replay` replays to; its operations count replayed values.
private let lateSubscribers = 10

/// The baseline's source subscription: an object that stands for the connection.
private final class BaselineSourceSubscription {}

/// The baseline's autoconnect and share: a list of subscription objects; the first subscription
/// calls `connect`, and removing the last releases what it returned, so the next first one
/// connects again.
private final class BaselineSubscriberList {
    private final class Subscription {}

    private var subscriptions: [Subscription] = []
    private var connection: BaselineSourceSubscription?
    private let connect: () -> BaselineSourceSubscription

    init(connect: @escaping () -> BaselineSourceSubscription) {
        self.connect = connect
    }

    func add() -> AnyObject {
        let subscription = Subscription()
        subscriptions.append(subscription)
        if subscriptions.count == 1, connection == nil { connection = connect() }
        return subscription
    }

    func remove(_ subscription: AnyObject) {
        if let index = subscriptions.firstIndex(where: { $0 === subscription }) { subscriptions.remove(at: index) }
        if subscriptions.isEmpty { connection = nil }
    }
}

// MARK: - subject.flood-dispose

// A producer thread sends to a subject nonstop, with one long-lived subscriber, while another
// thread subscribes and disposes `cycles` times, timing each `dispose()` on its own; a third thread
// samples the resident size. Ours is a `Subject<Int, Never>`; the baseline a dictionary of closures
// under a `Mutex`, whose producer copies the closures under the lock and calls them outside it.
// Neither dispose waits for a callback under way: the baseline's removes the closure under the
// lock; ours marks the member disposed and takes it out of the subject's list, or leaves that to
// the producer if it is walking the list at that moment.
// On Linux with two processors or more the producer and the disposing thread are pinned to two
// different ones, so that they really run at once every run (BENCHMARKS_FLOOD_UNPINNED=1 leaves
// them to the scheduler, which on a busy two-processor machine often runs them by turns).
//
// Figures: the median dispose (the table's ns/op, and so the ratio), the longest, and each side's
// peak resident size: VmHWM, reset before each side's run (`/proc/self/clear_refs`), or where it
// cannot be reset the peak of VmRSS sampled every 5 ms. The baseline runs first (after a short
// unmeasured flood, which pays the process's first-time costs), so that its figures are not those
// of whatever ours leaves behind (ours may be stopped with threads still running). One round each:
// the 10,000 timed disposes are the distribution.
//
// A side that runs away is stopped, so the scenario always ends: at its time limit (ours 40 s,
// the baseline 10 s; 10 s and 5 s with --quick; BENCHMARKS_FLOOD_TIME_LIMIT=seconds sets ours),
// or when its resident size passes the memory cap (half the available memory, at most 8 GiB;
// BENCHMARKS_FLOOD_MEMORY_CAP_MB). Then the producer is stopped too; a dispose still under way
// 2 s later is reported as unfinished, with the time it had taken so far, and the process ends
// with it running.
//
// Environment: BENCHMARKS_FLOOD_CYCLES=n for a longer (or shorter) flood: memory should be flat
// in it, the same peak with 40,000 cycles as with 10,000.

/// How many subscribe/dispose cycles each side does: 10,000, 2,000 with `--quick`, or
/// `BENCHMARKS_FLOOD_CYCLES`.
private func floodCycles(quick: Bool) -> Int {
    environmentCount("BENCHMARKS_FLOOD_CYCLES") ?? (quick ? 2_000 : 10_000)
}

private func floodDispose(quick: Bool) -> Measurement {
    let cycles = floodCycles(quick: quick)
    let limits = (
        ours: Double(environmentCount("BENCHMARKS_FLOOD_TIME_LIMIT") ?? (quick ? 10 : 40)),
        baseline: quick ? 5.0 : 10.0
    )
    let memoryCap = floodMemoryCapKilobytes()

    let makeBaseline = {
        let subject = BaselineFloodSubject()
        let kept = Sink()
        let cycled = Sink()
        let keep: @Sendable (Int) -> Void = { kept.value &+= $0 }
        let cycle: @Sendable (Int) -> Void = { cycled.value &+= $0 }
        _ = subject.subscribe(opaque(keep))
        return FloodTarget(
            send: { subject.send($0) },
            subscribe: {
                let key = subject.subscribe(opaque(cycle))
                return { subject.remove(key) }
            }
        )
    }
    // A short flood first, so that what the first one in the process costs (its threads'
    // machinery, Foundation's) is not counted in the baseline's memory.
    _ = runFlood(cycles: 100, timeLimit: limits.baseline, memoryCap: memoryCap, makeTarget: makeBaseline)
    let baseline = runFlood(cycles: cycles, timeLimit: limits.baseline, memoryCap: memoryCap, makeTarget: makeBaseline)
    let ours = runFlood(cycles: cycles, timeLimit: limits.ours, memoryCap: memoryCap) {
        let subject = Subject<Int, Never>()
        let kept = Sink()
        let cycled = Sink()
        subject.subscribeNext { kept.value &+= $0 }
        return FloodTarget(
            send: { subject.sendNext($0) },
            subscribe: {
                let subscription = subject.subscribeNext { cycled.value &+= $0 }
                return { subscription.dispose() }
            }
        )
    }

    let peakSource = ours.peakFromHighWaterMark && baseline.peakFromHighWaterMark ? "VmHWM" : "VmRSS sampled"
    return Measurement(
        scenario: "subject.flood-dispose",
        nanosecondsPerOperation: ours.median,
        baselineNanosecondsPerOperation: baseline.median,
        peakResidentKilobytes: ours.peakKilobytes,
        startResidentKilobytes: ours.startKilobytes,
        spread: Spread(
            longestNanoseconds: ours.longest,
            baselineLongestNanoseconds: baseline.longest,
            baselinePeakResidentKilobytes: baseline.peakKilobytes,
            baselineStartResidentKilobytes: baseline.startKilobytes,
            peakSource: peakSource,
            requestedOperations: cycles,
            completedOperations: ours.completed,
            baselineCompletedOperations: baseline.completed,
            backgroundOperations: ours.sends,
            baselineBackgroundOperations: baseline.sends,
            stopReason: ours.stopReason,
            baselineStopReason: baseline.stopReason,
            longestUnfinished: ours.unfinished != nil,
            baselineLongestUnfinished: baseline.unfinished != nil
        )
    )
}

/// Half the available memory, at most 8 GiB, or `BENCHMARKS_FLOOD_MEMORY_CAP_MB`.
private func floodMemoryCapKilobytes() -> Int {
    if let megabytes = environmentCount("BENCHMARKS_FLOOD_MEMORY_CAP_MB") { return megabytes * 1024 }
    let eightGiB = 8 * 1024 * 1024
    guard let meminfo = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
          let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
          let available = Int(line.split(separator: " ").dropFirst().first ?? "") else { return eightGiB / 2 }
    return min(eightGiB, available / 2)
}

/// One side of the flood: how to send, and how to subscribe (returning how to dispose).
private struct FloodTarget: Sendable {
    var send: @Sendable (Int) -> Void
    var subscribe: @Sendable () -> @Sendable () -> Void
}

/// What one side of the flood measured.
private struct FloodRun {
    /// Each completed dispose, in ns, in order.
    var durations: [UInt64]
    /// A dispose (or, stuck before it, a subscribe) still under way when given up on: the ns it
    /// had taken by then.
    var unfinished: UInt64?
    var stopReason: String?
    /// The values the producer sent, from its start to its stop.
    var sends: Int
    var startKilobytes: Int
    var peakKilobytes: Int
    /// Whether `peakKilobytes` is VmHWM (reset before the run), rather than the sampled peak.
    var peakFromHighWaterMark: Bool

    var completed: Int { durations.count }

    var median: Double {
        let all = (durations + (unfinished.map { [$0] } ?? [])).sorted()
        guard !all.isEmpty else { return .nan }
        return all.count.isMultiple(of: 2)
            ? (Double(all[all.count / 2 - 1]) + Double(all[all.count / 2])) / 2
            : Double(all[all.count / 2])
    }

    var longest: Double {
        Double(max(durations.max() ?? 0, unfinished ?? 0))
    }
}

/// An atomic on cache lines of its own, so that the producer's reads and writes of it, one per
/// send, do not slow the disposing thread's writes to its neighbours inside the timed disposes.
private final class PaddedAtomic<Value: AtomicRepresentable & Sendable>: Sendable {
    private typealias Lines = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private let before: Lines = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let value: Atomic<Value>
    private let after: Lines = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(_ initialValue: Value) {
        value = Atomic(initialValue)
    }
}

/// What the flood's threads share.
private final class FloodControl: Sendable {
    /// The producer's: read at each send, and its count of sends, stored at each.
    let stopProducer = PaddedAtomic(false)
    let sends = PaddedAtomic(0)
    let stopCycling = Atomic<Bool>(false)
    let stopSampling = Atomic<Bool>(false)
    let producerStarted = Atomic<Bool>(false)
    /// When the dispose under way started (uptime ns), or 0 between disposes.
    let disposeStart = Atomic<UInt64>(0)
    /// When the subscribe under way started, or 0 between subscribes.
    let subscribeStart = Atomic<UInt64>(0)
    /// How many entries of `durations` are written; stored (releasing) after each.
    let completed = Atomic<Int>(0)
    let sampledPeak = Atomic<Int>(0)
    let memoryCapHit = Atomic<Bool>(false)
    /// Each dispose's ns, written by the cycling thread only, read up to `completed`. Never freed
    /// while a thread may still write it: when the cycling thread is given up on, it leaks.
    nonisolated(unsafe) let durations: UnsafeMutableBufferPointer<UInt64>
    /// Signalled when the cycling thread ends, or when the sampler finds the memory cap passed.
    let wake = DispatchSemaphore(value: 0)
    let cyclingDone = DispatchSemaphore(value: 0)
    let producerDone = DispatchSemaphore(value: 0)
    let samplingDone = DispatchSemaphore(value: 0)

    init(cycles: Int) {
        durations = .allocate(capacity: cycles)
        durations.initialize(repeating: 0)
    }
}

/// Keeps the calling thread on processor `index` (modulo those there are), on Linux with two or
/// more: the producer and the disposing thread then really run at once, every run, rather than
/// sometimes taking turns on one processor (which makes every lock uncontended).
private func pinToProcessor(_ index: Int) {
    #if os(Linux)
    let processors = ProcessInfo.processInfo.activeProcessorCount
    guard processors >= 2, ProcessInfo.processInfo.environment["BENCHMARKS_FLOOD_UNPINNED"] == nil else { return }
    // Glibc's module leaves out the GNU extensions, `sched_setaffinity` among them.
    typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
    let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
    guard let symbol = dlsym(everywhere, "sched_setaffinity") else { return }
    var set = cpu_set_t()
    withUnsafeMutableBytes(of: &set) { bytes in
        let processor = index % processors
        bytes[processor / 8] |= UInt8(1 << (processor % 8))
    }
    _ = withUnsafeBytes(of: &set) { bytes in
        unsafeBitCast(symbol, to: SetAffinity.self)(0, bytes.count, bytes.baseAddress!)
    }
    #endif
}

private func uptimeNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Floods the target that `makeTarget` makes while subscribing and disposing `cycles` times, as
/// the section's comment says; never takes much longer than `timeLimit` seconds.
private func runFlood(cycles: Int, timeLimit: Double, memoryCap: Int, makeTarget: () -> FloodTarget) -> FloodRun {
    let grace = 2.0
    // Made (and its buffer of durations touched) before the start size is read, so that the
    // buffer, which grows with `cycles`, is not counted in the growth.
    let control = FloodControl(cycles: cycles)
    let startKilobytes = PeakMemory.residentKilobytes()
    PeakMemory.reset()
    // Resetting worked if the high-water mark is now about the present size.
    let peakFromHighWaterMark = PeakMemory.kilobytes() <= PeakMemory.residentKilobytes() + 1024
    control.sampledPeak.store(startKilobytes, ordering: .relaxed)
    let target = makeTarget()

    Thread {
        while !control.stopSampling.load(ordering: .relaxed) {
            let resident = PeakMemory.residentKilobytes()
            if resident > control.sampledPeak.load(ordering: .relaxed) {
                control.sampledPeak.store(resident, ordering: .relaxed)
            }
            if resident > memoryCap, !control.memoryCapHit.exchange(true, ordering: .relaxed) {
                control.wake.signal()
            }
            usleep(5_000)
        }
        control.samplingDone.signal()
    }.start()
    Thread {
        pinToProcessor(0)
        var value = 0
        control.producerStarted.store(true, ordering: .releasing)
        while !control.stopProducer.value.load(ordering: .relaxed) {
            target.send(value)
            value &+= 1
            // A plain store to a line of its own; read at the end, even after a send that hangs.
            control.sends.value.store(value, ordering: .relaxed)
        }
        control.producerDone.signal()
    }.start()
    while !control.producerStarted.load(ordering: .acquiring) { usleep(100) }
    usleep(10_000)

    let started = uptimeNanoseconds()
    Thread {
        pinToProcessor(1)
        for index in 0..<cycles {
            if control.stopCycling.load(ordering: .relaxed) { break }
            control.subscribeStart.store(uptimeNanoseconds(), ordering: .relaxed)
            let dispose = target.subscribe()
            control.subscribeStart.store(0, ordering: .relaxed)
            // Published before the timed dispose, so that the store is not part of it.
            control.disposeStart.store(uptimeNanoseconds(), ordering: .relaxed)
            let start = uptimeNanoseconds()
            dispose()
            let end = uptimeNanoseconds()
            control.disposeStart.store(0, ordering: .relaxed)
            control.durations[index] = end - start
            control.completed.store(index + 1, ordering: .releasing)
        }
        control.cyclingDone.signal()
        control.wake.signal()
    }.start()

    var stopReason: String?
    let deadline = DispatchTime(uptimeNanoseconds: started + UInt64(timeLimit * 1e9))
    if control.wake.wait(timeout: deadline) == .timedOut {
        stopReason = "time limit \(Int(timeLimit)) s"
    } else if control.memoryCapHit.load(ordering: .relaxed), control.completed.load(ordering: .acquiring) < cycles {
        stopReason = "memory cap \(memoryCap) KiB"
    }
    control.stopCycling.store(true, ordering: .relaxed)
    control.stopProducer.value.store(true, ordering: .relaxed)
    var unfinished: UInt64?
    let cyclingEnded = control.cyclingDone.wait(timeout: .now() + grace) == .success
    if !cyclingEnded {
        // Stuck in a dispose, or else in a subscribe, which then counts as the longest operation.
        let disposeStart = control.disposeStart.load(ordering: .relaxed)
        let start = disposeStart != 0 ? disposeStart : control.subscribeStart.load(ordering: .relaxed)
        if start != 0 { unfinished = uptimeNanoseconds() - start }
        stopReason = (stopReason ?? "") + (disposeStart != 0 ? ", a dispose unfinished" : ", a subscribe unfinished")
    }
    if control.producerDone.wait(timeout: .now() + grace) == .timedOut {
        stopReason = (stopReason ?? "") + ", the producer's send unfinished"
    }
    control.stopSampling.store(true, ordering: .relaxed)
    control.samplingDone.wait()

    let completed = control.completed.load(ordering: .acquiring)
    let durations = Array(control.durations[0..<completed])
    if cyclingEnded { control.durations.deallocate() }
    return FloodRun(
        durations: durations,
        unfinished: unfinished,
        stopReason: stopReason,
        sends: control.sends.value.load(ordering: .relaxed),
        startKilobytes: startKilobytes,
        peakKilobytes: peakFromHighWaterMark ? PeakMemory.kilobytes() : control.sampledPeak.load(ordering: .relaxed),
        peakFromHighWaterMark: peakFromHighWaterMark
    )
}

/// The baseline's subject: subscriber closures by key under a `Mutex`. A send copies them under
/// the lock and calls them outside it; subscribing inserts and disposing removes, under the lock.
private final class BaselineFloodSubject: Sendable {
    private struct State {
        var nextKey = 0
        var subscribers: [Int: @Sendable (Int) -> Void] = [:]
    }

    private let state = Mutex(State())

    func send(_ value: Int) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber(value) }
    }

    func subscribe(_ subscriber: @escaping @Sendable (Int) -> Void) -> Int {
        state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.subscribers[key] = subscriber
            return key
        }
    }

    func remove(_ key: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
    }
}

/// 100,000 times: subscribe to the multicast signal `make` returns, then dispose (op: one cycle);
/// the baseline adds to and removes from a subscriber list that connects an opaque source.
private func multicastCycleScenario(name: String, _ make: @escaping @Sendable () -> Signal<Int, Never>) -> Scenario {
    Scenario(
        name: name,
        operations: 100_000,
        prepareOurs: { count in
            let shared = make()
            return {
                for _ in 0..<count { shared.subscribe(next: { _ in }).dispose() }
            }
        },
        prepareBaseline: { count in
            let list = BaselineSubscriberList(connect: opaque { BaselineSourceSubscription() })
            return {
                for _ in 0..<count { list.remove(list.add()) }
            }
        }
    )
}

import Disposables

/// A block waiting in a scheduler's queue: runs once unless disposed first.
///
/// Disposing releases the block (and whatever it captured) at once, not when its turn comes.
/// `QueueScheduler`'s blocks for a date are a subclass that also tells the scheduler.
class ScheduledAction: Disposable, @unchecked Sendable {
    private let work: Lock<Work?>

    /// The block, in a struct: a closure stored as `Lock`'s generic value itself would be
    /// re-wrapped in reabstraction thunks on every `withLock`, so each run of a repeating block
    /// would take longer than the last.
    private struct Work {
        let block: @Sendable () -> Void
    }

    init(work: @escaping @Sendable () -> Void) {
        self.work = Lock(Work(block: work))
        super.init()
    }

    /// Runs the block as `scheduler`'s, unless it was disposed.
    func run(on scheduler: Scheduler) {
        guard let work = take() else { return }
        scheduler.performAsCurrentScheduler(work.block)
    }

    /// Runs the block as `scheduler`'s and keeps it for the next run, unless it was disposed.
    func runRepeating(on scheduler: Scheduler) {
        guard let work = work.withLock({ $0 }) else { return }
        scheduler.performAsCurrentScheduler(work.block)
    }

    override func dispose() {
        guard markDisposed() else { return }
        // The block is released here, outside the lock: its captures' deinits may run user code.
        _ = take()
    }

    private func take() -> Work? {
        work.withLock { work in
            defer { work = nil }
            return work
        }
    }
}

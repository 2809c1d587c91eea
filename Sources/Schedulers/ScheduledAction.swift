import Disposables

/// A block waiting in a scheduler's queue: runs once unless disposed first.
///
/// Disposing releases the block (and whatever it captured) at once, not when its turn comes.
final class ScheduledAction: Disposable, @unchecked Sendable {
    private let work: Lock<(@Sendable () -> Void)?>

    init(work: @escaping @Sendable () -> Void) {
        self.work = Lock(work)
        super.init()
    }

    /// Runs the block as `scheduler`'s, unless it was disposed.
    func run(on scheduler: Scheduler) {
        guard let work = take() else { return }
        scheduler.performAsCurrentScheduler(work)
    }

    /// Runs the block as `scheduler`'s and keeps it for the next run, unless it was disposed.
    func runRepeating(on scheduler: Scheduler) {
        guard let work = work.withLock({ $0 }) else { return }
        scheduler.performAsCurrentScheduler(work)
    }

    override func dispose() {
        guard markDisposed() else { return }
        // The block is released here, outside the lock: its captures' deinits may run user code.
        _ = take()
    }

    private func take() -> (@Sendable () -> Void)? {
        work.withLock { work in
            defer { work = nil }
            return work
        }
    }
}

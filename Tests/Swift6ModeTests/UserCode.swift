// Code as a user of the library writes it in the Swift 6 language mode: view models on the main
// actor, actors, bindings, `for await` loops and marble tests. The target compiles with warnings
// as errors (Package.swift), and `Swift6ModeTests` checks that nothing here uses one of Swift 6's
// escape hatches (unchecked sendability, unsafe nonisolation, assumed isolation), so that
// compiling is the proof that the APIs read as native Swift 6.
import Disposables
import Schedulers
import Signals
import Subjects

enum LoadError: Error, Equatable {
    case offline
}

/// A view model: main-actor state fed by signals.
@MainActor final class ProfileViewModel {
    var title = ""
    var status = ""
    var errorText = ""
    var isLoaded = false
    let subscriptions = CompoundDisposable()

    func bind(titles: Signal<String, Never>, statuses: Signal<String, Never>) {
        subscriptions.add(titles.subscribeNextOnMainActor { [weak self] in self?.title = $0 })
        subscriptions.add(statuses.assignOnMainActor(to: \.status, on: self))
    }

    func load(_ profile: Signal<String, LoadError>) {
        subscriptions.add(profile.subscribeOnMainActor(
            next: { [weak self] in self?.title = $0 },
            error: { [weak self] in self?.errorText = "\($0)" },
            completed: { [weak self] in self?.isLoaded = true }
        ))
    }

    /// Awaits the first title; a failure is thrown as its own type.
    func firstTitle(of profile: Signal<String, LoadError>) async throws(LoadError) -> String? {
        try await profile.firstValue()
    }

    /// Shows only the newest progress the loop has not caught up with; a failure is thrown typed.
    func showProgress(_ progress: Signal<Double, LoadError>) async throws(LoadError) -> [Double] {
        var shown: [Double] = []
        for try await fraction in progress.values(bufferingPolicy: .bufferingNewest(1)) {
            shown.append(fraction)
        }
        return shown
    }

    /// Reads every status into `status`, until the signal ends or the task is cancelled.
    func follow(_ statuses: Signal<String, Never>) async {
        for await status in statuses.values {
            self.status = status
        }
    }
}

/// An actor whose state signals feed.
actor DownloadLog {
    var finished: [String] = []
    var failures: [LoadError] = []

    func follow(_ downloads: Signal<String, LoadError>) -> Disposable {
        downloads.subscribeOnActor(
            self,
            next: { log, file in log.finished.append(file) },
            error: { log, failure in log.failures.append(failure) }
        )
    }

    func count() -> Int { finished.count }
}

/// Settings shared across threads: its cells are `Sendable`, so the class is too.
final class Settings: Sendable {
    let theme = ObservableValue("light")
    let fontSize = ObservableValue(12)
}

/// Async work as signals.
enum Network {
    static func fetchTitle() async throws(LoadError) -> String {
        await Task.yield()
        return "Ada"
    }

    static var title: Signal<String, LoadError> {
        Signal { () async throws(LoadError) -> String in try await fetchTitle() }
    }

    static var progress: Signal<Double, LoadError> {
        Signal(emitting: { send throws(LoadError) in
            for step in 1...4 {
                await Task.yield()
                send(Double(step) / 4)
            }
        })
    }

    static var pages: Signal<Int, Never> {
        Signal(AsyncStream { continuation in
            for page in 1...3 { continuation.yield(page) }
            continuation.finish()
        })
    }
}

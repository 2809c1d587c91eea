// What every program of the catalog shares: an app's types, as a user's module declares them.
// Type-checked with the mistakes (Mistakes/) and with their corrected twins (Fixed/).
import Foundation
import ReactiveCocoaSwift

struct SearchError: Error {}

protocol SearchAPI: Sendable {
    func search(_ query: String) async throws -> [String]
    func results(for query: String) -> Signal<[String], any Error>
    func typedResults(for query: String) -> Signal<[String], SearchError>
    func suggestions(for query: String) -> Signal<[String], Never>
}

// The whole library behind one import: `import ReactiveCocoaSwift` brings in every module's public
// API, as if each were imported by name. Depend on the product `ReactiveCocoaSwift`; the seven
// modules stay products of their own for those who want only some of them.

@_exported import Command
@_exported import Disposables
@_exported import Schedulers
@_exported import Sequences
@_exported import Signals
@_exported import Subjects
@_exported import Tuples

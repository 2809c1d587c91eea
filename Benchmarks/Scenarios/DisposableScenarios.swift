import Disposables

func disposableScenarios() -> [Scenario] { [
    Scenario(
        name: "compound.add-dispose",
        operations: 100_000,
        ours: { count in
            let sink = Sink()
            let compound = CompoundDisposable()
            for index in 0..<count {
                compound.add(Disposable { sink.value &+= index })
            }
            compound.dispose()
            precondition(sink.value == count * (count - 1) / 2)
        },
        baseline: { count in
            let sink = Sink()
            var actions: [() -> Void] = []
            for index in 0..<count {
                actions.append(opaque { sink.value &+= index })
            }
            for action in actions { action() }
            actions.removeAll()
            precondition(sink.value == count * (count - 1) / 2)
        }
    ),
    addRemoveScenario(name: "compound.add-remove", order: { $0 }),
    // Removal stays O(1) in any order: the last child added is removed first.
    addRemoveScenario(name: "compound.add-remove-reversed", order: { $0.reversed() }),
    Scenario(
        name: "serial.swap",
        operations: 100_000,
        ours: { count in
            let sink = Sink()
            let serial = SerialDisposable()
            for index in 0..<count {
                serial.swap(Disposable { sink.value &+= index })
            }
            serial.dispose()
            precondition(sink.value == count - 1)
        },
        baseline: { count in
            let sink = Sink()
            var slot: (() -> Void)?
            for index in 0..<count {
                slot = opaque { sink.value &+= index }
            }
            slot?()
            precondition(sink.value == count - 1)
        }
    ),
] }

/// Add 100,000 children, remove each in the given order, then dispose; the baseline does the same
/// with a dictionary of closures.
private func addRemoveScenario(name: String, order: @escaping ([Int]) -> [Int]) -> Scenario {
    Scenario(
        name: name,
        operations: 100_000,
        prepareOurs: { count in
            let removals = order(Array(0..<count))
            return {
                let sink = Sink()
                let compound = CompoundDisposable()
                var children: [Disposable] = []
                children.reserveCapacity(count)
                for index in 0..<count {
                    let child = Disposable { sink.value &+= index }
                    children.append(child)
                    compound.add(child)
                }
                for index in removals {
                    compound.remove(children[index])
                }
                compound.dispose()
                precondition(sink.value == 0)
            }
        },
        prepareBaseline: { count in
            let removals = order(Array(0..<count))
            return {
                let sink = Sink()
                var actions: [Int: () -> Void] = [:]
                for index in 0..<count {
                    actions[index] = opaque { sink.value &+= index }
                }
                for index in removals {
                    actions.removeValue(forKey: index)
                }
                for action in actions.values { action() }
                precondition(sink.value == 0)
            }
        }
    )
}

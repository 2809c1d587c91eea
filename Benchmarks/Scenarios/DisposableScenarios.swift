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
    Scenario(
        name: "compound.add-remove",
        operations: 100_000,
        ours: { count in
            let sink = Sink()
            let compound = CompoundDisposable()
            var children: [Disposable] = []
            children.reserveCapacity(count)
            for index in 0..<count {
                let child = Disposable { sink.value &+= index }
                children.append(child)
                compound.add(child)
            }
            for child in children {
                compound.remove(child)
            }
            compound.dispose()
            precondition(sink.value == 0)
        },
        baseline: { count in
            let sink = Sink()
            var actions: [Int: () -> Void] = [:]
            for index in 0..<count {
                actions[index] = opaque { sink.value &+= index }
            }
            for index in 0..<count {
                actions.removeValue(forKey: index)
            }
            for action in actions.values { action() }
            precondition(sink.value == 0)
        }
    ),
    Scenario(
        name: "compound.add-remove-reversed",
        operations: 100_000,
        ours: { count in
            // Removal stays O(1) in any order: the last child added is removed first.
            let sink = Sink()
            let compound = CompoundDisposable()
            var children: [Disposable] = []
            children.reserveCapacity(count)
            for index in 0..<count {
                let child = Disposable { sink.value &+= index }
                children.append(child)
                compound.add(child)
            }
            for child in children.reversed() {
                compound.remove(child)
            }
            compound.dispose()
            precondition(sink.value == 0)
        },
        baseline: { count in
            let sink = Sink()
            var actions: [Int: () -> Void] = [:]
            for index in 0..<count {
                actions[index] = opaque { sink.value &+= index }
            }
            for index in (0..<count).reversed() {
                actions.removeValue(forKey: index)
            }
            for action in actions.values { action() }
            precondition(sink.value == 0)
        }
    ),
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

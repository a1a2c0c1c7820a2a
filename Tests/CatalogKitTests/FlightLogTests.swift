@testable import CatalogKit
import Foundation
import Testing

/// The child's side of crash containment: strikes from the flight log, and a request that goes alone.
struct FlightLogTests {
    @Test func aCrashStrikesWhatWasInFlightAndNothingElse() {
        let log = ["start\ta", "start\tb", "end\ta", "start\tc", "crash", "start\tb", "crash", "start\td", "end\td"]
            .joined(separator: "\n")
        let replay = FlightLog.replay(log)
        #expect(replay.strikes == ["b": 2, "c": 1])
        #expect(replay.inFlight.isEmpty)
        #expect(FlightLog.replay("start\tx\nstart\tx\nend\tx").inFlight == ["x"])
    }

    @Test func aRequestThatGoesAloneWaitsForTheOthersAndHoldsBackTheRest() async {
        let gate = ConcurrencyGate(total: 4, perHost: 4)
        await gate.acquire(host: "h")
        let order = Order()
        let alone = Task {
            await gate.acquire(host: "h", alone: true)
            await order.note("alone")
            await gate.release(host: "h", alone: true)
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        // Arriving after it, this one may not overtake it, though there is room.
        let later = Task {
            await gate.acquire(host: "h")
            await order.note("later")
            await gate.release(host: "h")
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        #expect(await order.names.isEmpty)
        await gate.release(host: "h")
        await alone.value
        await later.value
        #expect(await order.names == ["alone", "later"])
    }

    actor Order {
        var names: [String] = []
        func note(_ name: String) { names.append(name) }
    }
}

@testable import EventLogTestKit
import Foundation
import Synchronization
import Testing

/// The conformance kit's watchdog ends a case at its time-out even when the case's body never notices that it was
/// cancelled: the run goes on, and the case fails.
@Suite struct WatchdogTests {
    @Test func aBodyThatIgnoresCancellationStillEndsAtTheTimeOut() async throws {
        let parked = Mutex<UnsafeContinuation<Void, Never>?>(nil)
        await withKnownIssue("the watchdog records its time-out") {
            _ = try await withWatchdog(seconds: 1) {
                // Suspended until resumed, whatever cancellation says.
                await withUnsafeContinuation { c in parked.withLock { $0 = c } }
                return 1
            }
        }
        // Let the body end now that the case has moved on.
        while parked.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        parked.withLock { $0?.resume() }
    }

    @Test func aBodyThatEndsGivesItsValue() async throws {
        #expect(try await withWatchdog(seconds: 60) { 42 } == 42)
    }
}

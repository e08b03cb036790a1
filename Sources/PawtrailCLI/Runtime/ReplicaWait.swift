import EventLog

/// Waits for a replica to hold a position: the read-your-writes wait of `--read-your-writes`.
struct ReplicaWait {
    /// The replica.
    let replica: any EventStore
    /// The longest wait.
    let timeout: Duration

    /// Returns once the replica's last position is at least `target` (at once for `nil`: the store was empty).
    ///
    /// - Parameter target: The position to reach.
    /// - Throws: ``EventStoreError/Code/timedOut`` when the replica is still behind after the timeout; the
    ///   replica's errors.
    func until(_ target: UInt64?) async throws {
        guard let target else { return }
        let deadline = ContinuousClock.now + timeout
        while true {
            let last = try await replica.lastPosition()
            if let last, last >= target { return }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                let behind = target - (last ?? 0) + (last == nil ? 1 : 0)
                throw EventStoreError.timedOut(
                    "the replica is still \(behind) event\(behind == 1 ? "" : "s") behind the store after \(timeout); read from the store, or wait and retry")
            }
            // A standby cannot be notified (it polls): each wait is short.
            _ = try await replica.waitForAppends(after: last, timeout: min(left, .milliseconds(200)))
        }
    }
}

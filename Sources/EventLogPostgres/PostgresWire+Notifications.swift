import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension PostgresWire {
    /// Waits up to `timeout` for a notification on a channel this connection listens to, and takes what came.
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: Whether a notification arrived.
    /// - Throws: ``PostgresFailure/connectionLost(_:)``.
    func waitForNotification(timeout: Duration) throws(PostgresFailure) -> Bool {
        if takeNotified() { return true }
        let deadline = ContinuousClock.now + timeout
        while true {
            // Whole messages already read come first.
            while let type = peekType() {
                guard let message = try? receive() else { throw .connectionLost("the connection to PostgreSQL was lost") }
                if type == UInt8(ascii: "A") { notified = true }
                _ = message
            }
            if takeNotified() { return true }
            let left = deadline - ContinuousClock.now
            let ms = Int32(clamping: max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, ms)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            do throws(PostgresFailure) {
                guard try fill() else { throw PostgresFailure.connectionLost("the server closed the connection") }
            } catch {
                isUsable = false
                throw error
            }
        }
    }

    private func takeNotified() -> Bool {
        defer { notified = false }
        return notified
    }
}

import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into a call (cancelling a follow), so an interrupted `log tail --follow` flushes
/// and exits 0 instead of dying mid-line.
final class InterruptHandler {
    private static let signals: [Int32] = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]

    /// Installs the handler until ``cancel()``.
    ///
    /// - Parameter onInterrupt: Called (on a global queue) for each signal.
    init(_ onInterrupt: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { signalNumber in
            // The default action must be off, or the process dies before the dispatch source sees the signal.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: onInterrupt)
            source.resume()
            return source
        }
    }

    /// Removes the handler and restores the default actions.
    func cancel() {
        for s in sources { s.cancel() }
        for s in Self.signals { signal(s, SIG_DFL) }
    }
}

@testable import PawtrailCLI
import Synchronization

/// A console that keeps what commands print.
final class CapturingConsole: Console {
    private let streams = Mutex<(out: String, err: String)>(("", ""))

    func write(_ text: String, to stream: ConsoleStream) {
        streams.withLock { s in
            switch stream {
            case .standardOutput: s.out += text
            case .standardError: s.err += text
            }
        }
    }

    func flush() {}

    var standardOutput: String { streams.withLock { $0.out } }
    var standardError: String { streams.withLock { $0.err } }
}

/// Standard output or standard error.
public enum ConsoleStream: Sendable, Hashable {
    case standardOutput
    case standardError
}

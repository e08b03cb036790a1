/// Sizes on disk as people read them.
enum ByteCount {
    /// `812 B`, `4.2 KB`, `37.5 MB`, `1.20 GB` (decimal units, as `df -H` prints).
    static func text(_ bytes: Int) -> String {
        let b = Double(bytes)
        switch bytes {
        case ..<1_000: return "\(bytes) B"
        case ..<1_000_000: return String(format: "%.1f KB", b / 1e3)
        case ..<1_000_000_000: return String(format: "%.1f MB", b / 1e6)
        default: return String(format: "%.2f GB", b / 1e9)
        }
    }
}

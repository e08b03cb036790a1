/// How many terminal columns text takes, as `wcwidth(3)` counts them: combining marks and format characters take
/// none (a Bangla virama, a vowel sign drawn over or under its consonant), East Asian wide characters and emoji two,
/// everything else one. Tables pad by it, so Bangla and English cells line up.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        // Nearly every cell is ASCII: counted from its bytes, without asking each scalar's Unicode category, which
        // took a third of a large table's rendering.
        var columns = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.unicodeScalars.reduce(0) { $0 + of($1) } }
            columns += ascii(UInt32(byte))
        }
        return columns
    }

    /// The columns an ASCII character takes: none for a control character or DEL, one for any other.
    private static func ascii(_ v: UInt32) -> Int { v >= 0x20 && v != 0x7F ? 1 : 0 }

    /// The columns one scalar takes.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x80 { return ascii(scalar.value) }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(scalar.value) ? 2 : 1
    }

    /// East Asian wide and fullwidth ranges, and emoji drawn two columns wide.
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

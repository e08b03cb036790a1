/// Aligns rows of cells into columns separated by two spaces, by the columns each cell takes on a terminal
/// (``DisplayWidth``), so that Bangla cells line up with English ones.
enum TextTable {
    /// Renders rows (the first one usually a header).
    ///
    /// - Parameters:
    ///   - rows: The cells; rows may be shorter than the widest.
    ///   - rightAligned: Column indexes to right-align (numbers).
    /// - Returns: One string per row, without trailing spaces.
    static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        return rows.map { row in
            var line = ""
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - DisplayWidth.of(cell))
                if i > 0 { line += "  " }
                line += rightAligned.contains(i) ? pad + cell : cell + pad
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

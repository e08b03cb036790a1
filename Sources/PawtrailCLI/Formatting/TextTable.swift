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
        let cellWidths = rows.map { $0.map(DisplayWidth.of) }
        var widths = [Int](repeating: 0, count: columns)
        for row in cellWidths { for (i, w) in row.enumerated() { widths[i] = max(widths[i], w) } }
        // A line's columns: its bytes, for ASCII cells.
        let lineColumns = widths.reduce(0, +) + 2 * max(0, columns - 1)
        return zip(rows, cellWidths).map { row, rowWidths in
            var line = ""
            line.reserveCapacity(lineColumns)
            for (i, cell) in row.enumerated() {
                let pad = widths[i] - rowWidths[i]
                if i > 0 { line += "  " }
                if rightAligned.contains(i) {
                    line += String(repeating: " ", count: pad)
                    line += cell
                } else {
                    line += cell
                    // A last cell's padding would only be trimmed again.
                    if i < row.count - 1 { line += String(repeating: " ", count: pad) }
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

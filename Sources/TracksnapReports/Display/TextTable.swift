/// Rows of cells laid out in aligned columns, each cell painted after it is padded so that
/// colour codes do not count towards a column's width.
///
/// ```swift
/// var table = TextTable()
/// table.append([.init("/ev"), .init("\"a\"", .green), .init("\"b\"", .red)])
/// table.lines(indent: "    ", painter: painter)
/// ```
struct TextTable {
    struct Cell {
        var text: String
        var style: Painter.Style?
        init(_ text: String, _ style: Painter.Style? = nil) {
            self.text = text
            self.style = style
        }
    }

    private(set) var rows: [[Cell]] = []

    mutating func append(_ row: [Cell]) { rows.append(row) }

    func lines(indent: String, painter: Painter, gap: Int = 2) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.text.count) }
        }
        return rows.map { row in
            var line = indent
            // Trailing empty cells would only leave trailing spaces.
            let last = row.lastIndex { !$0.text.isEmpty } ?? -1
            for (i, cell) in row.enumerated() where i <= last {
                let painted = cell.style.map { painter($0, cell.text) } ?? cell.text
                line += painted
                if i < last { line += String(repeating: " ", count: widths[i] - cell.text.count + gap) }
            }
            return line
        }
    }
}

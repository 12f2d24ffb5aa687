/// Plain-text tables for a terminal: columns aligned by what a terminal shows, not by bytes or UTF-16 units.
///
/// Foundation's `padding(toLength:)` counts UTF-16 units: an emoji label (two units, one character, two
/// columns) was cut in half into U+FFFD and the columns after it shifted. Here every cell is measured in terminal
/// columns (wide East Asian characters and emoji take two, combining marks none), and control characters in a cell
/// (a tab or a newline in a label) are shown as spaces so that a row stays one line.
enum TextTable {
    /// Rows joined into lines, each column as wide as its widest cell, two spaces apart. The last column is not
    /// padded (it may be long free text).
    static func render(_ rows: [[String]]) -> [String] {
        let cells = rows.map { $0.map(cell) }
        let columns = cells.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            cells.map { $0.indices.contains(column) ? width($0[column]) : 0 }.max() ?? 0
        }
        return cells.map { row in
            row.indices.map { index in
                index == row.count - 1 ? row[index] : pad(row[index], to: widths[index])
            }
            .joined(separator: "  ")
        }
    }

    /// `text` with control characters (tab, newline, …) replaced by spaces.
    static func cell(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
            )
        )
    }

    /// `text` followed by spaces up to `columns` terminal columns.
    static func pad(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }

    /// The terminal columns `text` takes.
    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns of one character: 0 for combining marks alone, 2 for emoji and wide East Asian characters, else 1.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) { return 0 }
        if properties.isEmojiPresentation || character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        return wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Hangul Jamo, CJK, Hangul syllables, fullwidth forms, CJK extensions).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}

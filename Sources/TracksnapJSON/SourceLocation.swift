/// A line and column in a file, both 1-based; the column counts Unicode scalars.
///
/// ```swift
/// let start = SourceLocation(line: 3, column: 5)
/// print("\(start.line):\(start.column)")  // 3:5
/// ```
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    /// - Parameters:
    ///   - line: the 1-based line.
    ///   - column: the 1-based column, counted in Unicode scalars (a tab is one column).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

public import TracksnapJSON

/// A tracking plan's event that a run never sent: what coverage lists.
///
/// ```swift
/// result.unsentPlanned.map(\.description)  // ["Validators/shop.plan.json:14:5: track \"Refund Issued\""]
/// ```
public struct PlannedEvent: Sendable, Hashable, CustomStringConvertible {
    /// `track "Order Completed"`, `identify`, `page "Home"`.
    public var title: String
    /// The plan file, and where the definition stands in it.
    public var file: String
    public var location: SourceLocation?

    public init(title: String, file: String, location: SourceLocation? = nil) {
        self.title = title
        self.file = file
        self.location = location
    }

    /// `Validators/shop.plan.json:14:5`.
    public var place: String { "\(file)\(location.map { ":\($0.line):\($0.column)" } ?? "")" }

    public var description: String { "\(place): \(title)" }
}

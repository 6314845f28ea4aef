import TracksnapJSON
package import TracksnapYAML

extension Cassette {
    /// Whether a file is a cassette: the one rule for it, which a folder's listing
    /// (`Workspace.files`, given this function) and `tracksnap lint` (what a file is checked as)
    /// both ask, so that a cassette lint checks is one a folder holds, wherever it lies.
    ///
    /// ```swift
    /// Cassette.isCassette(file: "tests/cassettes/shop.yaml")  // true: vcrpy's `interactions`
    /// Cassette.isCassette(file: "Snapshots/checkout.json")    // false: a snapshot's shape
    /// ```
    /// A JSON file (`.json`) is one when its shape says so (`format(ofFile:)`); a YAML file (`.yml`,
    /// `.yaml`) when its shape says so too, or when it does not parse: it is then read as a
    /// cassette, so that its error is told at its line. Callers ask RudderStack's YAML tracking
    /// plans first. A file of another name is not a cassette: a `.har` file is a capture
    /// (`--capture`), read by `CaptureFile`; a HAR cassette is named `.json`.
    package static func isCassette(file path: String) -> Bool { isCassette(SourceFile(path: path)) }

    /// The same, from a file whose parse the questions before and after this one read too
    /// (`TrackingPlan.isRudderStack`, `read(_:)`).
    package static func isCassette(_ file: SourceFile) -> Bool {
        guard file.isYAML else { return format(of: file) != nil }
        guard file.bytes != nil else { return false }
        do throws(InputError) {
            return Format(shape: try file.document().document.value) != nil
        } catch {
            return true
        }
    }

    /// The format a cassette file's shape says it is in (`Format(shape:)`), or nil when the file is
    /// no cassette, cannot be read, or does not parse. JSON may hold trailing commas, as Vinyl's does.
    package static func format(ofFile path: String) -> Format? { format(of: SourceFile(path: path)) }

    /// The same, from the file's parse, which later questions read too.
    package static func format(of file: SourceFile) -> Format? {
        if file.isYAML { return (try? file.document()).flatMap { Format(shape: $0.document.value) } }
        guard file.path.hasSuffix(".json") else { return nil }
        return (try? file.json()).flatMap { Format(shape: $0.value) }
    }
}

import Foundation
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

    /// The same, from a file whose YAML, parsed once, the questions before and after this one
    /// read too (`TrackingPlan.isRudderStack`, `read(_:)`).
    package static func isCassette(_ file: SourceFile) -> Bool {
        guard file.isYAML else {
            guard file.path.hasSuffix(".json"), let document = try? file.json() else { return false }
            return Format(shape: document.value) != nil
        }
        guard file.bytes != nil else { return false }
        do throws(InputError) {
            return Format(shape: try file.document().document.value) != nil
        } catch {
            return true
        }
    }

    /// The format a cassette file's shape says it is in (`Format(shape:)`), or nil when the file is
    /// no cassette, cannot be read, or does not parse. JSON may hold trailing commas, as Vinyl's does.
    package static func format(ofFile path: String) -> Format? {
        let yaml = isYAML(path)
        guard yaml || path.hasSuffix(".json"),
            let bytes = FileManager.default.contents(atPath: path)
        else { return nil }
        if yaml { return (try? YAMLDocument.parse(bytes, file: path)).flatMap { Format(shape: $0.document.value) } }
        return (try? JSONDocument.parse(bytes, file: path, trackLocations: false, allowsTrailingCommas: true))
            .flatMap { Format(shape: $0.value) }
    }

    private static func isYAML(_ path: String) -> Bool { SourceFile.isYAML(path) }
}

import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// Writes the JUnit XML document.
struct JUnitRenderer {
    let options: ReportOptions

    func render(_ results: [SnapshotResult]) -> String {
        let failures = results.filter { !$0.passed }.count
        let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"tracksnap\" \(counts)>\n"
        xml += "  <testsuite name=\"tracksnap\" \(counts) skipped=\"0\">\n"
        for result in results {
            xml +=
                "    <testcase classname=\"tracksnap\" name=\"\(XMLEscaping.attribute(result.name))\" file=\"\(XMLEscaping.attribute(result.file))\""
            if result.passed, result.findings.isEmpty, result.unsentPlanned.isEmpty {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            let body = XMLEscaping.text(diff(result))
            if result.passed {
                // Warnings or coverage only: the case passes, and the report is kept as its output.
                xml += "      <system-out>\(body)</system-out>\n"
            } else {
                xml +=
                    "      <failure message=\"\(XMLEscaping.attribute(message(result)))\" type=\"mismatch\">\(body)</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// One line: how many findings, and the first error.
    func message(_ result: SnapshotResult) -> String {
        let count = plural(result.findings.count, "finding")
        guard let first = result.findings.first(where: { $0.severity == .error }) ?? result.findings.first else {
            return count
        }
        return VisibleText.line("\(count), first: \(first.path): \(first.message)", limit: 200)
    }

    /// The text report of this one snapshot, without colour, ending with the accept command.
    func diff(_ result: SnapshotResult) -> String {
        var lines = TextRenderer(options: ReportOptions(color: false)).snapshotLines(result)
        if let command = options.acceptCommand(for: result) {
            lines += ["", "To accept the new result: " + command]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

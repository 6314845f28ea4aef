import Foundation
import Testing
import TracksnapSnapshot
import TracksnapValidation

@testable import TracksnapReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("JUnit report")
struct JUnitReportTests {
    func parse(_ results: [SnapshotResult]) throws -> XMLElement {
        let xml = ReportFormat.junit.render(results, options: Fixtures.acceptOptions)
        let document = try XMLDocument(xmlString: xml, options: [])
        return try #require(document.rootElement())
    }

    func cases(_ root: XMLElement) -> [XMLElement] {
        root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
    }

    @Test("one suite with a test case per snapshot, and the counts on suite and suites")
    func structure() throws {
        let root = try parse([Fixtures.passing, Fixtures.checkout, Fixtures.hostile])
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1)
        for element in [root, suites[0]] {
            #expect(element.attribute(forName: "tests")?.stringValue == "3")
            #expect(element.attribute(forName: "failures")?.stringValue == "2")
        }
        #expect(suites[0].attribute(forName: "name")?.stringValue == "tracksnap")
        let testcases = cases(root)
        #expect(
            testcases.map { $0.attribute(forName: "name")?.stringValue } == ["home", "checkout", Fixtures.hostile.name])
        #expect(
            testcases.map { $0.attribute(forName: "file")?.stringValue } == [
                Fixtures.passing.file, Fixtures.checkout.file, Fixtures.hostile.file,
            ])
        #expect(testcases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "tracksnap" })
        #expect(testcases[0].elements(forName: "failure").isEmpty)
        #expect(testcases[1].elements(forName: "failure").count == 1)
    }

    @Test("a failure has a one-line message and the whole plain-text diff as its body")
    func failure() throws {
        let failure = try #require(cases(try parse([Fixtures.checkout])).first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "mismatch")
        #expect(failure.attribute(forName: "message")?.stringValue == "7 findings, first: /events/1/name: name differs")
        let body = try #require(failure.stringValue)
        let text = ReportFormat.text.render([Fixtures.checkout])
        let diff = try #require(text.components(separatedBy: "\n\n").first)
        #expect(body.hasPrefix(diff + "\n"))
        #expect(body.contains("\"Order Completed·\""))
        #expect(body.hasSuffix("To accept the new result: tracksnap accept 'Snapshots/checkout.json'\n"))
        #expect(!body.contains("\u{1B}"))
    }

    @Test("names, messages and values that look like XML stay text, and illegal characters are replaced")
    func hostile() throws {
        let xml = ReportFormat.junit.render([Fixtures.hostile])
        #expect(!xml.unicodeScalars.contains { !XMLEscaping.isAllowed($0) })
        let testcase = try #require(cases(try parse([Fixtures.hostile])).first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "a</failure>]]>&\"'<b>|*x*")
        #expect(testcase.attribute(forName: "file")?.stringValue == "Snapshots/we,ird: 100%.json")
        let failure = try #require(testcase.elements(forName: "failure").first)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(!message.contains("\n") && !message.contains("\r"))
        #expect(
            message
                == "3 findings, first: /requests/0/body/text: 50% off\\nsecond line, really: yes\\r⟨U+0000⟩</failure>]]>"
        )
        let body = try #require(failure.stringValue)
        #expect(body.contains("\"</failure>]]>\""))
        #expect(body.contains("nul⟨U+0000⟩bell⟨U+0007⟩esc⟨U+001B⟩[31m"))
    }

    @Test("a snapshot that passed with warnings keeps its diff as output, not as a failure")
    func warningsOnly() throws {
        let warned = Fixtures.many(errors: 0, warnings: 2)
        let root = try parse([warned])
        #expect(root.attribute(forName: "failures")?.stringValue == "0")
        let testcase = try #require(cases(root).first)
        #expect(testcase.elements(forName: "failure").isEmpty)
        #expect(
            testcase.elements(forName: "system-out").first?.stringValue?.contains("warning: unexpected_key") == true)
    }

    @Test(
        "XML escaping covers markup characters and characters XML 1.0 forbids",
        arguments: [
            ("a&b", "a&amp;b"), ("<x>", "&lt;x&gt;"), ("]]>", "]]&gt;"), ("\"'", "&quot;&apos;"),
            ("\u{0}\u{8}\u{B}\u{C}\u{1F}", "⟨U+0000⟩⟨U+0008⟩⟨U+000B⟩⟨U+000C⟩⟨U+001F⟩"), ("\u{FFFE}", "⟨U+FFFE⟩"),
            ("é🛒", "é🛒"),
        ])
    func escaping(raw: String, escaped: String) {
        #expect(XMLEscaping.text(raw) == escaped)
        #expect(XMLEscaping.attribute(raw) == escaped)
    }

    @Test("line breaks and tabs in an attribute are kept as references")
    func attributeWhitespace() {
        #expect(XMLEscaping.attribute("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d")
        #expect(XMLEscaping.text("a\tb\nc") == "a\tb\nc")
    }
}

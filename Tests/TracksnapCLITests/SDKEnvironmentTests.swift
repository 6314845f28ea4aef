import Foundation
import Testing
import TracksnapTestSupport

/// A snapshot recorded on one machine passes on another: the vendors' SDKs recorded on this
/// machine, then run as on a Mac with another Python and a newer release of every SDK
/// (`other_machine.py`), so that their OS, runtime, library version and user agent all differ.
@Suite("Recorded on one machine, passing on another: the vendors' Python SDKs", .tags(.process), .leftToMakeTest)
struct SDKEnvironmentTests {
    static let otherMachine = PackagePaths.sdks.appending(path: "other_machine.py")

    /// The SDK's script run as on the other machine.
    static func onOtherMachine(_ sdk: SDKCase, change: String? = nil) -> SDKRun.Program {
        SDKRun.Program(
            script: otherMachine,
            arguments: [PackagePaths.sdks.appending(path: "send_\(sdk.vendor).py").path]
                + (change.map { [$0] } ?? []),
            requests: sdk.requests)
    }

    @Test(
        "each SDK recorded here through its vendor profile and the default one passes when run as on a Mac with other versions",
        arguments: SDKCase.all)
    func otherMachine(_ sdk: SDKCase) async throws {
        try await withTemporaryDirectory { directory in
            let (_, here) = try await SDKRun.capture(sdk, into: directory.appending(path: "here.ndjson"))
            let (_, there) = try await SDKRun.capture(
                [Self.onOtherMachine(sdk)], into: directory.appending(path: "there.ndjson"))
            let thereText = try String(contentsOfFile: there, encoding: .utf8)
            #expect(thereText.contains("99.1.0"), "the other machine's SDK version was not sent: \(thereText)")
            for profile in [sdk.vendor, "default"] {
                let snapshot = directory.appending(path: "\(profile).json").path
                let record = try await tracksnap("record", snapshot, "--capture", here, "--validator", profile)
                #expect(record.status == 0, "\(record.stderr)")
                let text = try String(contentsOfFile: snapshot, encoding: .utf8)
                for machine in ["Linux", "Debian", "3.11.", "2.4.0", "2.1.9", "5.4.1", "1.3.0", "7.91.1", "py-1.1.0"] {
                    #expect(!text.contains("\"\(machine)"), "\(profile) recorded the machine (\(machine)): \(text)")
                }
                let check = try await tracksnap("validate", snapshot, "--capture", there, "--validator", profile)
                #expect(
                    check.status == 0, "\(sdk.vendor) through \(profile), run as on a Mac:\n\(check.stdout)\n\(text)")
            }
        }
    }

    @Test(
        "on the other machine, a changed property is still exactly one finding",
        arguments: [("segment", "segment"), ("segment", "default"), ("posthog", "posthog"), ("posthog", "default")])
    func changedProperty(vendor: String, profile: String) async throws {
        let sdk = try #require(SDKCase.all.first { $0.vendor == vendor })
        try await withTemporaryDirectory { directory in
            let (_, here) = try await SDKRun.capture(sdk, into: directory.appending(path: "here.ndjson"))
            let (_, changed) = try await SDKRun.capture(
                [Self.onOtherMachine(sdk, change: "change")], into: directory.appending(path: "changed.ndjson"))
            let snapshot = directory.appending(path: "snapshot.json").path
            let record = try await tracksnap("record", snapshot, "--capture", here, "--validator", profile)
            #expect(record.status == 0, "\(record.stderr)")
            if profile == "default" || vendor == "posthog" {
                #expect(record.stdout.contains("environment field"), "\(record.stdout)")
            }
            let check = try await tracksnap(
                "validate", snapshot, "--capture", changed, "--validator", profile, "--format", "json")
            let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
            let findings = ((report?["snapshots"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
            #expect(findings.map { $0["code"] as? String } == ["value_mismatch"], "\(check.stdout)")
        }
    }
}

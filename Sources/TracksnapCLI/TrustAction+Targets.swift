import Foundation
import TracksnapServer

/// The places tracksnap can trust the CA in itself, and take it out of again.
extension TrustAction {
    /// The NSS database Chromium and Firefox read on Linux, `~/.pki/nssdb`, through `certutil`
    /// (the certificate named `tracksnap`).
    static func nss(_ direction: Direction, _ authority: CertificateAuthority) -> TrustAction {
        let (certificate, command) = (authority.certificatePath, caCommand(authority))
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let folder = "\(home)/.pki/nssdb"
        let database = "sql:\(folder)"
        let provenance = ["certutil": "Debian: apt-get install libnss3-tools"]
        switch direction {
        case .trust:
            return TrustAction(
                target: "nss",
                steps: [
                    Step(["mkdir", "-p", folder]),
                    Step(["certutil", "-d", database, "-A", "-t", "C,,", "-n", "tracksnap", "-i", certificate]),
                ],
                provenance: provenance,
                done: "added as \"tracksnap\" to \(database) (Chromium and Firefox with the system's NSS database)",
                afterwards: ["to remove: \(command) --untrust nss"])
        case .untrust:
            let listed = succeeds(["certutil", "-d", database, "-L", "-n", "tracksnap"])
            return TrustAction(
                target: "nss", steps: [Step(["certutil", "-d", database, "-D", "-n", "tracksnap"])],
                provenance: provenance,
                nothingToDo: listed == false
                    ? "\(database) holds no certificate named \"tracksnap\": nothing to remove" : nil,
                done: "removed \"tracksnap\" from \(database)")
        }
    }

    /// The operating system's trusted roots: Debian's and Ubuntu's `ca-certificates`, Fedora's and
    /// RHEL's `ca-trust` (told apart by their tools), or the macOS System keychain.
    static func system(_ direction: Direction, _ authority: CertificateAuthority) -> TrustAction {
        let (certificate, command) = (authority.certificatePath, caCommand(authority))
        #if os(macOS)
            let keychain = "/Library/Keychains/System.keychain"
            switch direction {
            case .trust:
                return TrustAction(
                    target: "system",
                    steps: [
                        Step(["security", "add-trusted-cert", "-d", "-r", "trustRoot", "-k", keychain, certificate])
                    ],
                    writes: [keychain], privileged: true, done: "trusted as a root in \(keychain)",
                    afterwards: ["to remove: sudo \(command) --untrust system"])
            case .untrust:
                let trusted = succeeds(["security", "verify-cert", "-c", certificate])
                return TrustAction(
                    target: "system", steps: [Step(["security", "remove-trusted-cert", "-d", certificate])],
                    writes: [keychain], privileged: true,
                    nothingToDo: trusted == false ? "the system does not trust \(certificate): nothing to remove" : nil,
                    done: "no longer trusted by the system (\(keychain))")
            }
        #else
            let store =
                which("update-ca-certificates") == nil && which("update-ca-trust") != nil ? LinuxStore.fedora : .debian
            let file = "\(store.folder)/\(store.fileName)"
            let provenance = [store.update[0]: store.package]
            switch direction {
            case .trust:
                return TrustAction(
                    target: "system",
                    steps: [
                        Step(["install", "-m", "0644", certificate, file], undo: ["rm", "-f", file]),
                        Step(store.update),
                    ],
                    writes: [store.folder, store.output], privileged: true, provenance: provenance,
                    done: "added as \(file); programs using the system's roots now trust it",
                    afterwards: ["to remove: sudo \(command) --untrust system"])
            case .untrust:
                return TrustAction(
                    target: "system", steps: [Step(["rm", "-f", file]), Step(store.refresh)],
                    writes: [store.folder, store.output], privileged: true, provenance: provenance,
                    nothingToDo: FileManager.default.fileExists(atPath: file)
                        ? nil : "\(file) is not there: nothing to remove",
                    done: "removed \(file); programs using the system's roots no longer trust it")
            }
        #endif
    }

    /// `tracksnap ca` for the authority's folder, in the commands printed: named, because `sudo`
    /// gives root a HOME (and so a default folder) of its own.
    private static func caCommand(_ authority: CertificateAuthority) -> String {
        shellText(["tracksnap", "ca", "--ca-dir", authority.directory])
    }

    /// The booted iOS Simulator, through `xcrun simctl` (macOS with Xcode).
    static func iosSimulator(_ direction: Direction, _ authority: CertificateAuthority) -> TrustAction {
        let (certificate, command) = (authority.certificatePath, caCommand(authority))
        let provenance = ["xcrun": "Xcode, on macOS"]
        switch direction {
        case .trust:
            return TrustAction(
                target: "ios-simulator",
                steps: [Step(["xcrun", "simctl", "keychain", "booted", "add-root-cert", certificate])],
                provenance: provenance, done: "the booted simulator trusts it",
                afterwards: [
                    "to remove: \(command) --untrust ios-simulator (which resets the booted simulator's keychain)"
                ])
        case .untrust:
            return TrustAction(
                target: "ios-simulator", steps: [Step(["xcrun", "simctl", "keychain", "booted", "reset"])],
                provenance: provenance,
                done: "reset the booted simulator's keychain: it trusts none of the certificates added to it")
        }
    }
}

/// Where a Linux distribution keeps the roots its administrator adds, and the tool that gathers
/// them into the files programs read.
private struct LinuxStore {
    var folder: String
    var fileName: String
    var update: [String]
    /// The update after a removal.
    var refresh: [String]
    /// Where the update writes.
    var output: String
    var package: String

    static let debian = LinuxStore(
        folder: "/usr/local/share/ca-certificates", fileName: "tracksnap.crt", update: ["update-ca-certificates"],
        // Without --fresh the links to a removed certificate stay in /etc/ssl/certs.
        refresh: ["update-ca-certificates", "--fresh"], output: "/etc/ssl/certs",
        package: "Debian: apt-get install ca-certificates")
    static let fedora = LinuxStore(
        folder: "/etc/pki/ca-trust/source/anchors", fileName: "tracksnap.pem", update: ["update-ca-trust"],
        refresh: ["update-ca-trust"], output: "/etc/pki/ca-trust/extracted",
        package: "Fedora: dnf install ca-certificates")
}

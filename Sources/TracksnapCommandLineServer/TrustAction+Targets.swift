import Foundation
import TracksnapCommandLine
import TracksnapServer

/// The places tracksnap can trust the CA in itself, and take it out of again.
extension TrustAction {
    /// The NSS database Chromium and Firefox read on Linux, `~/.pki/nssdb`, through `certutil`.
    /// The certificate is named after its fingerprint (`tracksnap 068D20B07E9EC589`), so that a
    /// remade CA is a second entry rather than a second certificate under one name, and taking
    /// the trust back removes this CA's entry and no other (earlier versions named it `tracksnap`:
    /// such an entry is removed when it holds this certificate alone).
    static func nss(_ direction: Direction, _ authority: CertificateAuthority) -> TrustAction {
        let (certificate, command) = (authority.certificatePath, caCommand(authority))
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let folder = "\(home)/.pki/nssdb"
        let database = "sql:\(folder)"
        let nickname = "tracksnap \(shortFingerprint(authority))"
        let provenance = ["certutil": "Debian: apt-get install libnss3-tools"]
        switch direction {
        case .trust:
            return TrustAction(
                target: "nss",
                steps: [
                    Step(["mkdir", "-p", folder]),
                    Step(["certutil", "-d", database, "-A", "-t", "C,,", "-n", nickname, "-i", certificate]),
                ],
                provenance: provenance,
                done: "added as \"\(nickname)\" to \(database) (Chromium and Firefox with the system's NSS database)",
                afterwards: ["to remove: \(command) --untrust nss"])
        case .untrust:
            guard which("certutil") != nil else {
                return TrustAction(
                    target: "nss", steps: [Step(["certutil", "-d", database, "-D", "-n", nickname])],
                    provenance: provenance, done: "")
            }
            // Each entry tracksnap may have added, and the certificates it holds.
            let entries = nssNicknames(database).filter { $0 == "tracksnap" || $0.hasPrefix("tracksnap ") }.map {
                name in
                (
                    name: name,
                    fingerprints: CertificateAuthority.fingerprints(
                        inPEM: run(["certutil", "-d", database, "-L", "-n", name, "-a"]).output) ?? []
                )
            }
            let mine = entries.filter { $0.fingerprints == [authority.fingerprint] }.map(\.name)
            var afterwards: [String] = []
            for (name, fingerprints) in entries where !mine.contains(name) {
                let others = fingerprints.filter { $0 != authority.fingerprint }
                let what =
                    fingerprints.contains(authority.fingerprint)
                    ? "it names this CA's certificate and \(others.count) other(s), and certutil cannot remove one of them alone"
                    : "it is another certificate (SHA-256 \(others.joined(separator: ", "))), not this CA's"
                afterwards.append(
                    "left \"\(name)\" in \(database): \(what); to remove it: "
                        + shellText(["certutil", "-d", database, "-D", "-n", name]))
            }
            return TrustAction(
                target: "nss", steps: mine.map { Step(["certutil", "-d", database, "-D", "-n", $0]) },
                provenance: provenance,
                nothingToDo: mine.isEmpty
                    ? "\(database) holds no entry of this CA (SHA-256 \(authority.fingerprint)): nothing was removed"
                    : nil,
                done: "removed " + mine.map { "\"\($0)\"" }.joined(separator: " and ")
                    + " (this CA, SHA-256 \(authority.fingerprint)) from \(database)",
                afterwards: afterwards)
        }
    }

    /// The nicknames of the certificates in an NSS database (`certutil -L`, whose lines end in
    /// the trust flags); none when it cannot be read.
    private static func nssNicknames(_ database: String) -> [String] {
        let (status, output) = run(["certutil", "-d", database, "-L"])
        guard status == 0 else { return [] }
        var names: [String] = []
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let flags = words.last, words.count > 1, flags.filter({ $0 == "," }).count == 2 else { continue }
            let name = line[..<(line.range(of: " " + flags, options: .backwards)?.lowerBound ?? line.endIndex)]
            names.append(name.trimmingCharacters(in: .whitespaces))
        }
        return names
    }

    /// The first 8 bytes of the certificate's fingerprint, in hex: what names its entries in
    /// the trust stores.
    private static func shortFingerprint(_ authority: CertificateAuthority) -> String {
        String(authority.fingerprint.filter { $0 != ":" }.prefix(16))
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
            let file = "\(store.folder)/tracksnap-\(shortFingerprint(authority).lowercased()).\(store.fileExtension)"
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
                // The files tracksnap may have installed (earlier versions named theirs
                // tracksnap.crt), and which of them hold this CA's certificate and nothing else.
                let names = (try? FileManager.default.contentsOfDirectory(atPath: store.folder)) ?? []
                let files = names.filter {
                    $0 == "tracksnap.\(store.fileExtension)"
                        || ($0.hasPrefix("tracksnap-") && $0.hasSuffix(".\(store.fileExtension)"))
                }.sorted().map { "\(store.folder)/\($0)" }
                let held = files.map { path in
                    (
                        path: path,
                        fingerprints: (try? String(contentsOfFile: path, encoding: .utf8)).flatMap(
                            CertificateAuthority.fingerprints) ?? []
                    )
                }
                let mine = held.filter { $0.fingerprints == [authority.fingerprint] }.map(\.path)
                let afterwards = held.filter { !mine.contains($0.path) }.map { path, fingerprints in
                    let others = fingerprints.filter { $0 != authority.fingerprint }
                    let what =
                        fingerprints.isEmpty
                        ? "no certificate tracksnap could read"
                        : fingerprints.contains(authority.fingerprint)
                            ? "this CA's certificate and \(others.count) other(s)"
                            : "another certificate (SHA-256 \(others.joined(separator: ", "))), not this CA's"
                    return "left \(path): it holds \(what); to remove it: sudo rm \(Terminal.shellQuoted(path)) "
                        + "&& sudo \(shellText(store.refresh))"
                }
                return TrustAction(
                    target: "system", steps: mine.map { Step(["rm", "-f", $0]) } + [Step(store.refresh)],
                    writes: [store.folder, store.output], privileged: true, provenance: provenance,
                    nothingToDo: mine.isEmpty
                        ? "no file in \(store.folder) holds this CA (SHA-256 \(authority.fingerprint)): nothing was removed"
                        : nil,
                    done:
                        "removed \(mine.joined(separator: " and ")); programs using the system's roots no longer trust it",
                    afterwards: afterwards)
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
    /// What the files the tool gathers end with.
    var fileExtension: String
    var update: [String]
    /// The update after a removal.
    var refresh: [String]
    /// Where the update writes.
    var output: String
    var package: String

    static let debian = LinuxStore(
        folder: "/usr/local/share/ca-certificates", fileExtension: "crt", update: ["update-ca-certificates"],
        // Without --fresh the links to a removed certificate stay in /etc/ssl/certs.
        refresh: ["update-ca-certificates", "--fresh"], output: "/etc/ssl/certs",
        package: "Debian: apt-get install ca-certificates")
    static let fedora = LinuxStore(
        folder: "/etc/pki/ca-trust/source/anchors", fileExtension: "pem", update: ["update-ca-trust"],
        refresh: ["update-ca-trust"], output: "/etc/pki/ca-trust/extracted",
        package: "Fedora: dnf install ca-certificates")
}

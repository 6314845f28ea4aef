import Foundation
import Testing
import TracksnapTestSupport

/// `tracksnap ca --trust` and `--untrust` against the real stores: the system's roots (in a private
/// mount namespace, so that the machine's own are never touched), an NSS database in a temporary
/// HOME, and `xcrun` on the PATH for the iOS Simulator.
@Suite(
    "Trusting the CA and taking it back: the system store, NSS and the iOS Simulator", .tags(.process), .leftToMakeTest)
struct TrustTests {
    /// Where Debian's curl and OpenSSL read the system's roots from.
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"
    static let store = "/usr/local/share/ca-certificates"

    @Test(
        "--trust system: curl through the intercepting proxy succeeds without --cacert; --untrust system: it fails with exit 60"
    )
    func systemRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let made = try await tracksnap("ca", "--ca-dir", ca)
            #expect(made.status == 0)
            let certificate = try Self.body(ofPEM: "\(ca)/ca-cert.pem")
            let fingerprint = try Self.fingerprint(made.stdout)
            let installed = Self.installed(fingerprint)
            #expect(try !String(contentsOfFile: Self.bundle, encoding: .utf8).contains(certificate))
            let server = try await ServeChild.launch(["--intercept", "api.segment.io", "--answer", "--ca-dir", ca])
            defer { server.stop() }

            let steps = try await Self.inPrivateStore(
                """
                step trust "$TRACKSNAP" ca --ca-dir "$CA_DIR" --trust system
                cp \(Self.bundle) "$OUT/bundle-trusted.pem"
                step curl-trusted curl -sS --max-time 30 --noproxy '' --proxy "$PROXY" -d '{}' https://api.segment.io/v1/track
                step untrust "$TRACKSNAP" ca --ca-dir "$CA_DIR" --untrust system
                cp \(Self.bundle) "$OUT/bundle-untrusted.pem"
                step curl-untrusted curl -sS --max-time 30 --noproxy '' --proxy "$PROXY" -d '{}' https://api.segment.io/v1/track
                step untrust-again "$TRACKSNAP" ca --ca-dir "$CA_DIR" --untrust system
                """, in: directory, environment: ["CA_DIR": ca, "PROXY": server.base])

            let trust = try steps("trust")
            #expect(trust.status == 0, "\(trust.stderr)")
            #expect(trust.stdout.contains("system: added as \(installed)"), "\(trust.stdout)")
            #expect(trust.stdout.contains("to remove: sudo tracksnap ca --ca-dir \(ca) --untrust system"))
            let trusted = try String(contentsOf: directory.appending(path: "bundle-trusted.pem"), encoding: .utf8)
            #expect(trusted.contains(certificate), "update-ca-certificates did not put the CA in the bundle")
            let curlTrusted = try steps("curl-trusted")
            #expect(curlTrusted.status == 0, "\(curlTrusted.stderr)")
            #expect(curlTrusted.stdout == #"{"code":200,"status":1}"#)

            let untrust = try steps("untrust")
            #expect(untrust.status == 0, "\(untrust.stderr)")
            #expect(untrust.stdout.contains("system: removed \(installed);"), "\(untrust.stdout)")
            let untrusted = try String(contentsOf: directory.appending(path: "bundle-untrusted.pem"), encoding: .utf8)
            #expect(!untrusted.contains(certificate))
            let curlUntrusted = try steps("curl-untrusted")
            #expect(curlUntrusted.status == 60, "\(curlUntrusted.stderr)")

            let again = try steps("untrust-again")
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                again.stdout.contains(
                    "system: no file in \(Self.store) holds this CA (SHA-256 \(fingerprint)): nothing was removed"),
                "\(again.stdout)")

            // The namespace kept it all to itself: the machine's own store never held the CA.
            #expect(try !String(contentsOfFile: Self.bundle, encoding: .utf8).contains(certificate))
            #expect(!FileManager.default.fileExists(atPath: installed))
        }
    }

    @Test(
        "--untrust system after the CA is remade removes nothing of the old CA's and says so; a tracksnap.crt of this CA's goes"
    )
    func systemAfterRemake() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let steps = try await Self.inPrivateStore(
                """
                step trust-old "$TRACKSNAP" ca --ca-dir "$CA_DIR" --trust system
                cp "$CA_DIR/ca-cert.pem" "$OUT/old.pem"
                rm -r "$CA_DIR"
                step remake "$TRACKSNAP" ca --ca-dir "$CA_DIR"
                cp "$OUT/old.pem" \(Self.store)/tracksnap.crt
                step untrust "$TRACKSNAP" ca --ca-dir "$CA_DIR" --untrust system
                ls -A \(Self.store) > "$OUT/left.txt"
                cp \(Self.bundle) "$OUT/bundle-after.pem"
                cp "$CA_DIR/ca-cert.pem" \(Self.store)/tracksnap.crt
                step untrust-legacy "$TRACKSNAP" ca --ca-dir "$CA_DIR" --untrust system
                ls -A \(Self.store) > "$OUT/left-legacy.txt"
                """, in: directory, environment: ["CA_DIR": ca])
            let old = try Self.fingerprint(try steps("trust-old").stdout)
            let new = try Self.fingerprint(try steps("remake").stdout)
            #expect(old != new)
            let untrust = try steps("untrust")
            #expect(untrust.status == 0, "\(untrust.stderr)")
            #expect(
                untrust.stdout.contains(
                    "system: no file in \(Self.store) holds this CA (SHA-256 \(new)): nothing was removed"),
                "\(untrust.stdout)")
            for file in [Self.installed(old), "\(Self.store)/tracksnap.crt"] {
                #expect(
                    untrust.stdout.contains(
                        "  left \(file): it holds another certificate (SHA-256 \(old)), not this CA's; to remove it: sudo rm \(file) && sudo update-ca-certificates --fresh"
                    ), "\(untrust.stdout)")
            }
            let left = try String(contentsOf: directory.appending(path: "left.txt"), encoding: .utf8)
            let oldFile = URL(fileURLWithPath: Self.installed(old)).lastPathComponent
            #expect(left.split(separator: "\n").map(String.init).sorted() == [oldFile, "tracksnap.crt"].sorted())
            let oldBody = try Self.body(ofPEM: directory.appending(path: "old.pem").path)
            #expect(
                try String(contentsOf: directory.appending(path: "bundle-after.pem"), encoding: .utf8).contains(oldBody)
            )

            // As an earlier tracksnap named it: removed when it holds this CA.
            let legacy = try steps("untrust-legacy")
            #expect(legacy.status == 0, "\(legacy.stderr)")
            #expect(legacy.stdout.contains("system: removed \(Self.store)/tracksnap.crt;"), "\(legacy.stdout)")
            let leftLegacy = try String(contentsOf: directory.appending(path: "left-legacy.txt"), encoding: .utf8)
            #expect(leftLegacy.split(separator: "\n").map(String.init) == [oldFile])
        }
    }

    @Test("--trust system where the store is read-only: the sudo commands, exit 0, nothing changed")
    func systemReadOnly() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let steps = try await Self.inPrivateStore(
                """
                step trust "$TRACKSNAP" ca --ca-dir "$CA_DIR" --trust system
                ls -A /usr/local/share/ca-certificates > "$OUT/folder.txt"
                cmp -s "$OUT/bundle-before.pem" \(Self.bundle); echo $? > "$OUT/bundle-changed.txt"
                """, readOnly: true, in: directory, environment: ["CA_DIR": ca])
            let trust = try steps("trust")
            #expect(trust.status == 0, "\(trust.stderr)")
            #expect(
                trust.stdout.contains(
                    "system: this user may not write /usr/local/share/ca-certificates (Read-only file system), so nothing was changed"
                ), "\(trust.stdout)")
            let installed = Self.installed(try Self.fingerprint(trust.stdout))
            #expect(trust.stdout.contains("  sudo install -m 0644 \(ca)/ca-cert.pem \(installed)\n"))
            #expect(trust.stdout.contains("  sudo update-ca-certificates\n"))
            #expect(trust.stdout.contains("to remove: sudo tracksnap ca --ca-dir \(ca) --untrust system"))
            #expect(try String(contentsOf: directory.appending(path: "folder.txt"), encoding: .utf8).isEmpty)
            #expect(try String(contentsOf: directory.appending(path: "bundle-changed.txt"), encoding: .utf8) == "0\n")
        }
    }

    @Test("--trust system when update-ca-certificates fails: exit 2 naming it, and the copied certificate taken back")
    func systemToolFails() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let bin = try Self.fakeTool(
                "update-ca-certificates", #"echo "E: the bundle could not be written" >&2; exit 1"#, in: directory)
            let steps = try await Self.inPrivateStore(
                """
                step trust env PATH="\(bin):$PATH" "$TRACKSNAP" ca --ca-dir "$CA_DIR" --trust system
                ls -A /usr/local/share/ca-certificates > "$OUT/folder.txt"
                """, in: directory, environment: ["CA_DIR": ca])
            let trust = try steps("trust")
            #expect(trust.status == 2)
            #expect(
                trust.stderr.contains(
                    "error: system: `update-ca-certificates` failed (status 1); the commands before it were undone"),
                "\(trust.stderr)")
            #expect(trust.stderr.contains("E: the bundle could not be written"))
            #expect(try String(contentsOf: directory.appending(path: "folder.txt"), encoding: .utf8).isEmpty)
        }
    }

    @Test("--trust system without update-ca-certificates on the PATH: the commands and where to get it, exit 0")
    func systemToolMissing() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            // A PATH with the other tools the commands use, and not the store's.
            let bin = directory.appending(path: "bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            for tool in ["install", "rm"] {
                let path = try #require(TrustTests.which(tool))
                try FileManager.default.createSymbolicLink(
                    atPath: bin.appending(path: tool).path, withDestinationPath: path)
            }
            let steps = try await Self.inPrivateStore(
                """
                step trust env PATH="\(bin.path)" "$TRACKSNAP" ca --ca-dir "$CA_DIR" --trust system
                ls -A /usr/local/share/ca-certificates > "$OUT/folder.txt"
                """, in: directory, environment: ["CA_DIR": ca])
            let trust = try steps("trust")
            #expect(trust.status == 0, "\(trust.stderr)")
            #expect(
                trust.stdout.contains(
                    "system: update-ca-certificates is not on the PATH (Debian: apt-get install ca-certificates), so nothing was changed; to do it, run:\n  sudo install"
                ), "\(trust.stdout)")
            #expect(try String(contentsOf: directory.appending(path: "folder.txt"), encoding: .utf8).isEmpty)
        }
    }

    @Test("--trust nss adds the CA to ~/.pki/nssdb, --untrust nss takes it out, and again finds nothing to remove")
    func nssRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let home = directory.appending(path: "home").path
            let database = "sql:\(home)/.pki/nssdb"
            let trust = try await tracksnap("ca", "--ca-dir", ca, "--trust", "nss", environment: ["HOME": home])
            #expect(trust.status == 0, "\(trust.stderr)")
            let fingerprint = try Self.fingerprint(trust.stdout)
            let nickname = Self.nickname(fingerprint)
            #expect(trust.stdout.contains("nss: added as \"\(nickname)\" to \(database)"), "\(trust.stdout)")
            #expect(trust.stdout.contains("to remove: tracksnap ca --ca-dir \(ca) --untrust nss"))
            let present = try await Self.certutilList(database, nickname)
            #expect(present.status == 0, "\(present.stderr)")
            #expect(present.stdout.contains(fingerprint), "certutil lists another certificate: \(present.stdout)")

            let untrust = try await tracksnap("ca", "--ca-dir", ca, "--untrust", "nss", environment: ["HOME": home])
            #expect(untrust.status == 0, "\(untrust.stderr)")
            #expect(
                untrust.stdout.contains(
                    "nss: removed \"\(nickname)\" (this CA, SHA-256 \(fingerprint)) from \(database)"),
                "\(untrust.stdout)")
            #expect(try await Self.certutilList(database, nickname).status != 0)

            let again = try await tracksnap("ca", "--ca-dir", ca, "--untrust", "nss", environment: ["HOME": home])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                again.stdout.contains(
                    "nss: \(database) holds no entry of this CA (SHA-256 \(fingerprint)): nothing was removed"),
                "\(again.stdout)")
        }
    }

    @Test(
        "--untrust nss after the CA is remade leaves the old CA's entry and says so; it removes the new one's alone, and an entry named tracksnap of this CA's"
    )
    func nssAfterRemake() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let home = ["HOME": directory.appending(path: "home").path]
            let database = "sql:\(directory.path)/home/.pki/nssdb"
            let trustOld = try await tracksnap("ca", "--ca-dir", ca, "--trust", "nss", environment: home)
            #expect(trustOld.status == 0, "\(trustOld.stderr)")
            let old = try Self.fingerprint(trustOld.stdout)
            try FileManager.default.removeItem(atPath: ca)
            let remade = try await tracksnap("ca", "--ca-dir", ca, environment: home)
            let new = try Self.fingerprint(remade.stdout)
            #expect(old != new)

            let untrust = try await tracksnap("ca", "--ca-dir", ca, "--untrust", "nss", environment: home)
            #expect(untrust.status == 0, "\(untrust.stderr)")
            #expect(
                untrust.stdout.contains(
                    "nss: \(database) holds no entry of this CA (SHA-256 \(new)): nothing was removed\n"
                        + "  left \"\(Self.nickname(old))\" in \(database): it is another certificate (SHA-256 \(old)), not this CA's; "
                        + "to remove it: certutil -d \(database) -D -n '\(Self.nickname(old))'\n"), "\(untrust.stdout)")
            #expect(try await Self.certutilList(database, Self.nickname(old)).status == 0)

            // Both trusted: the new one's entry goes, the old one's stays.
            #expect(try await tracksnap("ca", "--ca-dir", ca, "--trust", "nss", environment: home).status == 0)
            let both = try await tracksnap("ca", "--ca-dir", ca, "--untrust", "nss", environment: home)
            #expect(both.stdout.contains("nss: removed \"\(Self.nickname(new))\" (this CA"), "\(both.stdout)")
            #expect(both.stdout.contains("  left \"\(Self.nickname(old))\""), "\(both.stdout)")
            #expect(try await Self.certutilList(database, Self.nickname(new)).status != 0)
            #expect(try await Self.certutilList(database, Self.nickname(old)).stdout.contains(old))

            // The name earlier versions gave it: removed when it holds this CA alone.
            let added = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["certutil", "-d", database, "-A", "-t", "C,,", "-n", "tracksnap", "-i", "\(ca)/ca-cert.pem"])
            #expect(added.status == 0, "\(added.stderr)")
            let legacy = try await tracksnap("ca", "--ca-dir", ca, "--untrust", "nss", environment: home)
            #expect(legacy.stdout.contains("nss: removed \"tracksnap\" (this CA"), "\(legacy.stdout)")
            #expect(try await Self.certutilList(database, "tracksnap").status != 0)
            #expect(try await Self.certutilList(database, Self.nickname(old)).status == 0)
        }
    }

    @Test("--trust ios-simulator runs xcrun simctl when xcrun is on the PATH, and prints it when not")
    func iosSimulator() async throws {
        try await withTemporaryDirectory { directory in
            let ca = directory.appending(path: "ca").path
            let calls = directory.appending(path: "xcrun-calls")
            let bin = try Self.fakeTool("xcrun", #"echo "$@" >> "\#(calls.path)""#, in: directory)
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let trust = try await tracksnap(
                "ca", "--ca-dir", ca, "--trust", "ios-simulator", environment: ["PATH": "\(bin):\(path)"])
            #expect(trust.status == 0, "\(trust.stderr)")
            #expect(trust.stdout.contains("ios-simulator: the booted simulator trusts it"), "\(trust.stdout)")
            let untrust = try await tracksnap(
                "ca", "--ca-dir", ca, "--untrust", "ios-simulator", environment: ["PATH": "\(bin):\(path)"])
            #expect(untrust.status == 0, "\(untrust.stderr)")
            #expect(
                try String(contentsOf: calls, encoding: .utf8)
                    == "simctl keychain booted add-root-cert \(ca)/ca-cert.pem\nsimctl keychain booted reset\n")

            let printed = try await tracksnap(
                "ca", "--ca-dir", ca, "--trust", "ios-simulator", environment: ["PATH": "/usr/bin:/bin"])
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(
                printed.stdout.contains(
                    "ios-simulator: xcrun is not on the PATH (Xcode, on macOS), so nothing was changed; to do it, run:\n  xcrun simctl keychain booted add-root-cert \(ca)/ca-cert.pem\n"
                ), "\(printed.stdout)")

            let failing = try Self.fakeTool("xcrun", #"echo "No devices are booted." >&2; exit 149"#, in: directory)
            let failed = try await tracksnap(
                "ca", "--ca-dir", ca, "--trust", "ios-simulator", environment: ["PATH": "\(failing):\(path)"])
            #expect(failed.status == 2)
            #expect(failed.stderr.contains("failed (status 149)"), "\(failed.stderr)")
            #expect(failed.stderr.contains("No devices are booted."))
        }
    }

    @Test("ca --help names every target and --untrust; --trust and --untrust of one target is a usage error")
    func helpAndContradiction() async throws {
        let help = try await tracksnap("ca", "--help")
        #expect(help.status == 0)
        for needle in ["--untrust <target>", "update-ca-certificates", "nss, system, python"] {
            #expect(help.stdout.contains(needle), "\(needle)")
        }
        try await withTemporaryDirectory { directory in
            let both = try await tracksnap(
                "ca", "--ca-dir", directory.appending(path: "ca").path, "--trust", "nss", "--untrust", "nss")
            #expect(both.status == 2)
            #expect(both.stderr.contains("--trust nss and --untrust nss contradict each other"), "\(both.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "ca").path))
        }
    }

    // MARK: - Support

    /// What one `step` of a namespace script left in the scratch folder.
    typealias Step = (status: Int32, stdout: String, stderr: String)

    /// Runs a shell script as root in a mount namespace of its own, in which the system's trust
    /// store is a copy: `/usr/local/share/ca-certificates` an empty tmpfs (read-only with
    /// `readOnly`), `/etc/ssl/certs` a tmpfs holding a copy of the machine's, and
    /// `/etc/ca-certificates/update.d` empty (its hooks, such as Java's keystore, would
    /// otherwise reach outside through dpkg triggers). The network is the machine's own.
    ///
    /// In the script, `step NAME COMMAND...` runs a command with its output and status kept, read
    /// back by the returned function; `$TRACKSNAP` is the built executable, `$OUT` the folder.
    /// `bundle-before.pem` in it is the bundle as the namespace began.
    ///
    /// An `unshare` that is not permitted fails the test: it never skips.
    static func inPrivateStore(
        _ script: String, readOnly: Bool = false, in directory: URL, environment: [String: String]
    ) async throws -> (String) throws -> Step {
        let prologue = """
            set -eu
            stage="$OUT/etc-ssl-certs"
            mkdir "$stage"
            cp -RP /etc/ssl/certs/. "$stage/"
            mount -t tmpfs \(readOnly ? "-o ro " : "")tracksnap-test /usr/local/share/ca-certificates
            mount -t tmpfs tracksnap-test /etc/ssl/certs
            cp -RP "$stage/." /etc/ssl/certs/
            if [ -d /etc/ca-certificates/update.d ]; then mount -t tmpfs tracksnap-test /etc/ca-certificates/update.d; fi
            cp \(bundle) "$OUT/bundle-before.pem"
            set +e
            step() { name=$1; shift; "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.status"; }

            """
        var inherited = ProcessInfo.processInfo.environment
        for name in [
            "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "http_proxy", "https_proxy",
            "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy", "NO_COLOR", "CI",
        ] {
            inherited[name] = nil
        }
        inherited["OUT"] = directory.path
        inherited["TRACKSNAP"] = try PackagePaths.executable.get().path
        // Root here, as on CI; elsewhere a user namespace in which this user is root.
        let namespace = getuid() == 0 ? ["--mount"] : ["--map-root-user", "--mount"]
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["unshare"] + namespace + ["--propagation", "private", "sh", "-c", prologue + script],
            environment: inherited.merging(environment) { _, given in given }, timeout: Bounds.process)
        try #require(
            result.status == 0,
            "the private mount namespace could not be made (unshare and mount need root or user namespaces): \(result.stderr)"
        )
        return { name in
            let read = { (suffix: String) in
                try String(contentsOf: directory.appending(path: "\(name).\(suffix)"), encoding: .utf8)
            }
            let status = try #require(Int32(try read("status").trimmingCharacters(in: .whitespacesAndNewlines)))
            return (status, try read("out"), try read("err"))
        }
    }

    /// The CA's SHA-256 fingerprint, from the `SHA-256:` line `tracksnap ca` prints.
    static func fingerprint(_ output: String) throws -> String {
        try #require(
            output.split(separator: "\n").first { $0.hasPrefix("SHA-256:") }?.split(separator: " ").last.map(
                String.init),
            "no SHA-256 line in \(output)")
    }

    /// The file `--trust system` installs a certificate as, named after its fingerprint.
    static func installed(_ fingerprint: String) -> String {
        "\(store)/tracksnap-\(fingerprint.filter { $0 != ":" }.prefix(16).lowercased()).crt"
    }

    /// The NSS nickname `--trust nss` gives a certificate.
    static func nickname(_ fingerprint: String) -> String {
        "tracksnap \(fingerprint.filter { $0 != ":" }.prefix(16))"
    }

    /// `certutil -L -n NICKNAME`: exit 0 and the certificate when the database holds it.
    static func certutilList(_ database: String, _ nickname: String) async throws -> ProcessResult {
        try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["certutil", "-d", database, "-L", "-n", nickname])
    }

    /// The base64 lines of a PEM file, as a bundle holds them.
    static func body(ofPEM path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("-----") }
            .joined(separator: "\n")
    }

    /// A folder (its path) holding one executable shell script named `name`.
    static func fakeTool(_ name: String, _ script: String, in directory: URL) throws -> String {
        let bin = directory.appending(path: "fake-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let tool = bin.appending(path: name)
        try "#!/bin/sh\n\(script)\n".write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        return bin.path
    }

    static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

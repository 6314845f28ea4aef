import ArgumentParser
import Foundation
import TracksnapServer

struct CA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract:
            "Create (once) and show the local certificate authority that `serve --intercept` signs certificates with.",
        discussion: """
            The key (ca-key.pem, mode 0600) and certificate (ca-cert.pem) live in --ca-dir, by default \
            ~/.local/share/tracksnap/ca ($XDG_DATA_HOME/tracksnap/ca) on Linux and \
            ~/Library/Application Support/tracksnap/ca on macOS. Prints their paths, the certificate's \
            SHA-256 fingerprint and its SPKI hash (for Chromium's --ignore-certificate-errors-spki-list). \
            A client that trusts this CA accepts any certificate tracksnap makes: trust it only where tests run.

            --trust TARGET installs the certificate where tracksnap can do it itself and prints the commands \
            for the rest. Targets: nss (Chromium and Firefox on Linux: certutil into ~/.pki/nssdb), python, \
            node, curl, ios-simulator, android.
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case nss, python, node, curl
        case iosSimulator = "ios-simulator"
        case android
    }

    @Option(help: ArgumentHelp("The folder of the CA's key and certificate.", valueName: "dir"))
    var caDir: String?

    @Option(
        help: ArgumentHelp("Trust the CA in TARGET where tracksnap can, or print how. Repeatable.", valueName: "target")
    )
    var trust: [Target] = []

    func run() throws {
        let directory = caDir ?? CertificateAuthority.defaultDirectory()
        let authority: CertificateAuthority
        let created: Bool
        do {
            (authority, created) = try CertificateAuthority.loadOrCreate(in: directory)
        } catch {
            Terminal.error("error: \(error.message)")
            throw Exit.badInput
        }
        print(
            created ? "created the certificate authority in \(directory)" : "the certificate authority in \(directory)")
        print("certificate: \(authority.certificatePath)")
        print("key:         \(authority.keyPath) (mode 0600: keep it to yourself)")
        print("SHA-256:     \(authority.fingerprint)")
        print("SPKI:        \(authority.spkiHash)")
        for target in trust {
            print("")
            try trust(authority, in: target)
        }
    }

    private func trust(_ authority: CertificateAuthority, in target: Target) throws {
        let certificate = TrafficOptions.shellQuoted(authority.certificatePath)
        switch target {
        case .nss:
            let home =
                ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            let database = "sql:\(home)/.pki/nssdb"
            let commands = [
                ["mkdir", "-p", "\(home)/.pki/nssdb"],
                ["certutil", "-d", database, "-A", "-t", "C,,", "-n", "tracksnap", "-i", authority.certificatePath],
            ]
            if let certutil = Self.which("certutil") {
                try FileManager.default.createDirectory(atPath: "\(home)/.pki/nssdb", withIntermediateDirectories: true)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: certutil)
                process.arguments = Array(commands[1].dropFirst())
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    Terminal.error("error: certutil failed (status \(process.terminationStatus))")
                    throw Exit.badInput
                }
                print(
                    "nss: added as \"tracksnap\" to \(database) (Chromium and Firefox with the system's NSS database)")
            } else {
                print("nss: certutil is not installed (Debian: apt-get install libnss3-tools); then run:")
                for command in commands { print("  " + command.map(TrafficOptions.shellQuoted).joined(separator: " ")) }
            }
            print("  to remove: certutil -d \(TrafficOptions.shellQuoted(database)) -D -n tracksnap")
            print(
                "  or, for Chromium alone without trusting it: --ignore-certificate-errors-spki-list=\(authority.spkiHash)"
            )
        case .python:
            print("python (requests, urllib, httpx): give the processes under test")
            print(
                "  export HTTPS_PROXY=http://127.0.0.1:PORT REQUESTS_CA_BUNDLE=\(certificate) SSL_CERT_FILE=\(certificate)"
            )
            print(
                "  (these replace the default roots for that process: hosts not intercepted then fail unless you bundle"
            )
            print("  both: cat \"$(python3 -m certifi)\" \(certificate) > bundle.pem)")
        case .node:
            print("node: adds to its roots for that process")
            print("  export HTTPS_PROXY=http://127.0.0.1:PORT NODE_EXTRA_CA_CERTS=\(certificate)")
        case .curl:
            print("curl:")
            print("  curl --proxy http://127.0.0.1:PORT --cacert \(certificate) https://api.segment.io/v1/track …")
        case .iosSimulator:
            let command = "xcrun simctl keychain booted add-root-cert \(certificate)"
            print("ios-simulator: the booted simulator trusts it after")
            print("  \(command)")
            print("  (to remove: Device > Erase All Content and Settings, or xcrun simctl keychain booted reset)")
        case .android:
            print("android: copy the certificate into the app (debug builds only) as res/raw/tracksnap_ca.pem:")
            print("  cp \(certificate) app/src/debug/res/raw/tracksnap_ca.pem")
            print("and trust it in app/src/debug/res/xml/network_security_config.xml:")
            print(
                """
                  <network-security-config>
                    <debug-overrides>
                      <trust-anchors>
                        <certificates src="@raw/tracksnap_ca"/>
                        <certificates src="system"/>
                      </trust-anchors>
                    </debug-overrides>
                  </network-security-config>
                """)
            print(
                "  with android:networkSecurityConfig=\"@xml/network_security_config\" on <application>; then point the"
            )
            print(
                "  emulator at the proxy: adb shell settings put global http_proxy 10.0.2.2:PORT, which reaches this machine's loopback)"
            )
        }
    }

    private static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

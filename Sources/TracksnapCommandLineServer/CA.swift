import ArgumentParser
import Foundation
import TracksnapCommandLine
import TracksnapServer

struct CA: CheckedCommand {
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

            --trust TARGET installs the certificate where tracksnap can do it itself, and otherwise prints \
            the exact commands, having changed nothing. Targets: nss (Chromium and Firefox on Linux: certutil \
            into ~/.pki/nssdb), system (the operating system's roots: update-ca-certificates, update-ca-trust \
            or the macOS System keychain; needs root, else it prints the commands with sudo), ios-simulator \
            (xcrun simctl on macOS), and python, node, curl, android (printed: they trust it per process or \
            per app). Each prints how to remove it.

            --untrust TARGET takes back what --trust did for nss, system and ios-simulator (removing what \
            is not there is not an error) and says how to stop trusting it elsewhere. In nss and system it \
            removes this CA's own certificate, found by its fingerprint, and names the other tracksnap \
            certificates it left there (a CA made before this one).

            The folder and both files must belong to the user running tracksnap, and neither may be \
            writable by its group or others (the key not readable either); the certificate must be a CA, \
            signed by the key and in date. Anything else is refused (exit 2), here and by serve.
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case nss, system, python, node, curl
        case iosSimulator = "ios-simulator"
        case android
    }

    @Option(help: ArgumentHelp("The folder of the CA's key and certificate.", valueName: "dir"))
    var caDir: String?

    @Option(
        help: ArgumentHelp("Trust the CA in TARGET where tracksnap can, or print how. Repeatable.", valueName: "target")
    )
    var trust: [Target] = []

    @Option(
        help: ArgumentHelp(
            "Take back the trust --trust gave TARGET where tracksnap can, or print how. Repeatable.",
            valueName: "target")
    )
    var untrust: [Target] = []

    func check() throws {
        if let both = trust.first(where: untrust.contains) {
            throw ValidationError("--trust \(both.rawValue) and --untrust \(both.rawValue) contradict each other")
        }
    }

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
        for target in untrust {
            print("")
            try untrust(authority, in: target)
        }
    }

    private func untrust(_ authority: CertificateAuthority, in target: Target) throws {
        switch target {
        case .nss: try TrustAction.nss(.untrust, authority).perform()
        case .system:
            try TrustAction.system(.untrust, authority).perform()
        case .iosSimulator:
            try TrustAction.iosSimulator(.untrust, authority).perform()
        case .python:
            print("python: nothing was installed; unset REQUESTS_CA_BUNDLE and SSL_CERT_FILE where they name the CA")
        case .node:
            print("node: nothing was installed; unset NODE_EXTRA_CA_CERTS where it names the CA")
        case .curl:
            print("curl: nothing was installed; drop --cacert \(Terminal.shellQuoted(authority.certificatePath))")
        case .android:
            print(
                "android: delete app/src/debug/res/raw/tracksnap_ca.pem and its <certificates src=\"@raw/tracksnap_ca\"/>, then reinstall the app"
            )
        }
    }

    private func trust(_ authority: CertificateAuthority, in target: Target) throws {
        let certificate = Terminal.shellQuoted(authority.certificatePath)
        switch target {
        case .nss:
            try TrustAction.nss(.trust, authority).perform()
            print(
                "  or, for Chromium alone without trusting it: --ignore-certificate-errors-spki-list=\(authority.spkiHash)"
            )
        case .system:
            try TrustAction.system(.trust, authority).perform()
        case .iosSimulator:
            try TrustAction.iosSimulator(.trust, authority).perform()
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
}

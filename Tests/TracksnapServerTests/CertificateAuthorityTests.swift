import Foundation
import Testing
import TracksnapTestSupport

@testable import TracksnapServer

@Suite("The local certificate authority (tracksnap ca)")
struct CertificateAuthorityTests {
    @Test("made once: the key has mode 0600, the certificate is a CA; loading again gives the same one")
    func createdOnce() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "nested/ca").path
            let (authority, created) = try CertificateAuthority.loadOrCreate(in: folder)
            #expect(created)
            var status = stat()
            #expect(stat(authority.keyPath, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
            #expect(stat(folder, &status) == 0)
            #expect(status.st_mode & 0o077 == 0)
            // No temporary file is left behind.
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["ca-cert.pem", "ca-key.pem"])

            let (again, createdAgain) = try CertificateAuthority.loadOrCreate(in: folder)
            #expect(!createdAgain)
            #expect(again.fingerprint == authority.fingerprint)

            let text = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["openssl", "x509", "-in", authority.certificatePath, "-noout", "-text", "-fingerprint", "-sha256"])
            #expect(text.stdout.contains("CA:TRUE"))
            #expect(text.stdout.contains("Certificate Sign"))
            #expect(text.stdout.contains("sha256 Fingerprint=\(authority.fingerprint)"), "\(text.stdout)")
        }
    }

    @Test("the SPKI hash is what Chromium's --ignore-certificate-errors-spki-list takes, as openssl computes it")
    func spkiHash() async throws {
        try await withAuthority { authority in
            let openssl = try await runProcess(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c",
                    "openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
                    "-", authority.certificatePath,
                ])
            #expect(openssl.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == authority.spkiHash)
            #expect(authority.spkiHash.count == 44)
        }
    }

    @Test(
        "a key others can read is refused, with the fix; so are a malformed certificate, a lone file and a foreign key")
    func refusals() throws {
        try withTemporaryDirectory { directory in
            let folder = directory.appending(path: "ca").path
            let (authority, _) = try CertificateAuthority.loadOrCreate(in: folder)
            chmod(authority.keyPath, 0o644)
            #expect { try CertificateAuthority.load(from: folder) } throws: { error in
                "\(error)".contains("can be used by others (mode 644)") && "\(error)".contains("chmod 600")
            }
            chmod(authority.keyPath, 0o600)
            _ = try CertificateAuthority.load(from: folder)

            try "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n".write(
                toFile: authority.certificatePath, atomically: true, encoding: .utf8)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("is not a PEM certificate")
            }

            // Another authority's certificate beside this key.
            let (other, _) = try CertificateAuthority.loadOrCreate(in: directory.appending(path: "other").path)
            try FileManager.default.removeItem(atPath: authority.certificatePath)
            try FileManager.default.copyItem(atPath: other.certificatePath, toPath: authority.certificatePath)
            #expect { try CertificateAuthority.load(from: folder) } throws: { "\($0)".contains("is not the key of") }

            try FileManager.default.removeItem(atPath: authority.certificatePath)
            #expect { try CertificateAuthority.loadOrCreate(in: folder) } throws: {
                "\($0)".contains("holds ca-key.pem but not ca-cert.pem")
            }
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("ca-cert.pem does not exist")
            }
        }
    }

    @Test("serve refuses a key others can read, and a malformed CA, with exit 2 and the reason")
    func serveRefuses() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "ca").path
            let (authority, _) = try CertificateAuthority.loadOrCreate(in: folder)
            let executable = try PackagePaths.executable.get().path
            chmod(authority.keyPath, 0o644)
            let readable = try await run(executable, ["serve", "--intercept", "analytics", "--ca-dir", folder])
            #expect(readable.status == 2)
            #expect(
                readable.stderr.contains("\(authority.keyPath) can be used by others (mode 644)"), "\(readable.stderr)")
            #expect(readable.stdout.isEmpty)

            chmod(authority.keyPath, 0o600)
            try "garbage\n".write(toFile: authority.keyPath, atomically: false, encoding: .utf8)
            let malformed = try await run(executable, ["serve", "--intercept", "analytics", "--ca-dir", folder])
            #expect(malformed.status == 2)
            #expect(malformed.stderr.contains("\(authority.keyPath) is not a PEM private key"), "\(malformed.stderr)")

            let missing = try await run(
                executable, ["serve", "--intercept", "all", "--ca-dir", directory.appending(path: "none").path])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("run `tracksnap ca"), "\(missing.stderr)")
        }
    }

    @Test("tracksnap ca prints the paths, fingerprint and SPKI hash, and the commands for each trust target")
    func caCommand() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "ca").path
            let executable = try PackagePaths.executable.get().path
            let first = try await run(
                executable,
                [
                    "ca", "--ca-dir", folder, "--trust", "python", "--trust", "node", "--trust", "curl", "--trust",
                    "ios-simulator", "--trust", "android",
                ])
            #expect(first.status == 0, "\(first.stderr)")
            let authority = try CertificateAuthority.load(from: folder)
            #expect(first.stdout.hasPrefix("created the certificate authority in \(folder)\n"))
            for line in [
                "certificate: \(authority.certificatePath)", "SHA-256:     \(authority.fingerprint)",
                "SPKI:        \(authority.spkiHash)",
                "REQUESTS_CA_BUNDLE=\(authority.certificatePath) SSL_CERT_FILE=\(authority.certificatePath)",
                "NODE_EXTRA_CA_CERTS=\(authority.certificatePath)", "--cacert \(authority.certificatePath)",
                "xcrun simctl keychain booted add-root-cert \(authority.certificatePath)",
                "<certificates src=\"@raw/tracksnap_ca\"/>",
            ] {
                #expect(first.stdout.contains(line), "\(line) missing from \(first.stdout)")
            }
            let second = try await run(executable, ["ca", "--ca-dir", folder])
            #expect(second.stdout.hasPrefix("the certificate authority in \(folder)\n"))
            #expect(second.stdout.contains(authority.fingerprint))
        }
    }

    @Test(
        "tracksnap ca --trust nss adds the CA to the user's NSS database (Chromium's and Firefox's), as certutil lists it"
    )
    func trustNSS() async throws {
        try await withTemporaryDirectory { home in
            let folder = home.appending(path: "ca").path
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            let executable = try PackagePaths.executable.get()
            let trusted = try await runProcess(
                executable, ["ca", "--ca-dir", folder, "--trust", "nss"], environment: environment)
            #expect(trusted.status == 0, "\(trusted.stderr)")
            let database = "sql:\(home.path)/.pki/nssdb"
            #expect(trusted.stdout.contains("nss: added as \"tracksnap\" to \(database)"), "\(trusted.stdout)")
            #expect(trusted.stdout.contains("to remove: tracksnap ca --ca-dir \(folder) --untrust nss"))
            let listed = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["certutil", "-d", database, "-L", "-n", "tracksnap", "-a"])
            let authority = try CertificateAuthority.load(from: folder)
            // certutil writes PEM with CRLF line ends.
            #expect(
                listed.stdout.replacingOccurrences(of: "\r", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
                    == (try String(contentsOfFile: authority.certificatePath, encoding: .utf8)).trimmingCharacters(
                        in: .whitespacesAndNewlines))
        }
    }
}

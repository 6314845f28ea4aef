import Crypto
import Foundation
import SwiftASN1
import Testing
import TracksnapTestSupport
import X509

@testable import TracksnapServer

@Suite("The local certificate authority (tracksnap ca)", .tags(.process), .leftToMakeTest)
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

    @Test(
        "a new CA folder, and each folder made above it, is 0700 from the start: under umask 000, mkdir 0700 and no chmod"
    )
    func newFolderMode() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "a/b/ca").path
            let trace = directory.appending(path: "trace").path
            let executable = try PackagePaths.executable.get().path
            // strace shows the mode each folder was made with, which a later chmod would hide.
            let result = try await runProcess(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c",
                    #"umask 000; exec strace -f -e trace=mkdir,mkdirat,chmod,fchmod,fchmodat -o "$1" "$2" ca --ca-dir "$3""#,
                    "-", trace, executable, folder,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            for (path, mode) in [("a", 0o700), ("a/b", 0o700), ("a/b/ca", 0o700), ("a/b/ca/ca-key.pem", 0o600)] {
                var status = stat()
                #expect(stat(directory.appending(path: path).path, &status) == 0)
                #expect(status.st_mode & 0o7777 == mode, "\(path): \(String(status.st_mode & 0o7777, radix: 8))")
            }
            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
                $0.contains(directory.path)
            }
            let made = calls.filter { $0.contains("mkdir") }
            #expect(made.count == 3, "\(calls)")
            #expect(made.allSatisfy { $0.contains(", 0700)") }, "\(made)")
            #expect(!calls.contains { $0.contains("chmod") }, "\(calls)")
        }
    }

    @Test(
        "a CA folder or file another user owns is refused, by tracksnap ca and serve (exit 2), naming the path and the owner"
    )
    func anotherUsersFolder() async throws {
        try #require(geteuid() == 0, "this test gives files to nobody: run it as root, as CI does")
        let nobody = try #require(getpwnam("nobody")).pointee
        let (uid, gid) = (nobody.pw_uid, nobody.pw_gid)
        let executable = try PackagePaths.executable.get().path
        try await withTemporaryDirectory { directory in
            chmod(directory.path, 0o755)
            // A folder anyone may write, which another user owns.
            let shared = directory.appending(path: "shared").path
            #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o777) == 0 && chown(shared, uid, gid) == 0)
            let owner = "belongs to nobody (uid \(uid)), not to root (uid 0) who runs tracksnap"
            let inShared = try await run(executable, ["ca", "--ca-dir", shared])
            #expect(inShared.status == 2)
            #expect(inShared.stderr.contains("the CA folder \(shared) \(owner)"), "\(inShared.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty)

            // That user makes a CA in it (its key theirs); root loading it is refused.
            let theirs = "\(shared)/ca"
            let made = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "setpriv", "--reuid", "\(uid)", "--regid", "\(gid)", "--clear-groups", executable, "ca", "--ca-dir",
                    theirs,
                ])
            #expect(made.status == 0, "\(made.stderr)")
            for arguments in [["ca", "--ca-dir", theirs], ["serve", "--intercept", "analytics", "--ca-dir", theirs]] {
                let refused = try await run(executable, arguments)
                #expect(refused.status == 2, "\(arguments)")
                #expect(refused.stderr.contains("the CA folder \(theirs) \(owner)"), "\(refused.stderr)")
                #expect(refused.stdout.isEmpty)
            }

            // In a folder of root's, a key or a certificate of theirs.
            let mine = directory.appending(path: "mine").path
            let (authority, _) = try CertificateAuthority.loadOrCreate(in: mine)
            for (path, what) in [(authority.keyPath, "the CA key"), (authority.certificatePath, "the CA certificate")] {
                #expect(chown(path, uid, gid) == 0)
                #expect { try CertificateAuthority.load(from: mine) } throws: {
                    "\($0)".contains("\(what) \(path) \(owner)")
                }
                #expect(chown(path, 0, 0) == 0)
            }
            _ = try CertificateAuthority.load(from: mine)
        }
    }

    @Test("a CA folder its group or others may write is refused, as is a certificate they may write and a linked file")
    func writableFolder() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "ca").path
            let (authority, _) = try CertificateAuthority.loadOrCreate(in: folder)
            chmod(folder, 0o770)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("the CA folder \(folder) can be written by its group or others (mode 770)")
                    && "\($0)".contains("chmod 700 \(folder)")
            }
            let executable = try PackagePaths.executable.get().path
            let refused = try await run(executable, ["ca", "--ca-dir", folder])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("\(folder) can be written by its group or others"), "\(refused.stderr)")
            chmod(folder, 0o755)
            _ = try CertificateAuthority.load(from: folder)

            chmod(authority.certificatePath, 0o664)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains(
                    "the CA certificate \(authority.certificatePath) can be written by its group or others")
            }
            chmod(authority.certificatePath, 0o644)

            let elsewhere = directory.appending(path: "key.pem").path
            try FileManager.default.moveItem(atPath: authority.keyPath, toPath: elsewhere)
            try FileManager.default.createSymbolicLink(atPath: authority.keyPath, withDestinationPath: elsewhere)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("\(authority.keyPath) is a symbolic link")
            }
        }
    }

    @Test(
        "a certificate beside the key that the key did not sign (a forgery of 60 years), that is no CA, or is out of date is refused"
    )
    func certificateChecks() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "ca").path
            let (authority, _) = try CertificateAuthority.loadOrCreate(in: folder)
            let now = Date()
            let year: TimeInterval = 365 * 86400
            /// Puts a certificate for the CA's own public key in its place.
            func replace(
                subject: String = "tracksnap local CA", from: Date = now - 3600, to: Date = now + year,
                isCA: Bool = true, keyCertSign: Bool = true, signer: Certificate.PrivateKey = authority.privateKey
            ) throws {
                let name = try DistinguishedName { CommonName(subject) }
                let certificate = try Certificate(
                    version: .v3, serialNumber: .init(), publicKey: authority.certificate.publicKey,
                    notValidBefore: from, notValidAfter: to, issuer: name, subject: name,
                    signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        Critical(
                            isCA
                                ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority
                        )
                        Critical(KeyUsage(digitalSignature: true, keyCertSign: keyCertSign))
                    },
                    issuerPrivateKey: signer)
                try (certificate.serializeAsPEM().pemString + "\n").write(
                    toFile: authority.certificatePath, atomically: true, encoding: .utf8)
            }
            let path = authority.certificatePath
            // What the key signed, a CA in date: accepted, so each refusal below is for its one flaw.
            try replace()
            _ = try CertificateAuthority.load(from: folder)

            try replace(
                subject: "Forged Root", to: now + 60 * year, signer: Certificate.PrivateKey(P256.Signing.PrivateKey()))
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("\(path) is not signed by the CA's own key (ca-key.pem)")
            }
            let executable = try PackagePaths.executable.get().path
            for arguments in [["ca", "--ca-dir", folder], ["serve", "--intercept", "analytics", "--ca-dir", folder]] {
                let refused = try await run(executable, arguments)
                #expect(refused.status == 2, "\(arguments)")
                #expect(refused.stderr.contains("\(path) is not signed by the CA's own key"), "\(refused.stderr)")
            }

            try replace(from: now - 2 * year, to: now - 86400)
            #expect { try CertificateAuthority.load(from: folder) } throws: { "\($0)".contains("\(path) expired on ") }
            try replace(from: now + 86400)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("\(path) is not valid before")
            }
            try replace(isCA: false)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("\(path) is not a CA certificate (no basicConstraints CA:TRUE)")
            }
            try replace(keyCertSign: false)
            #expect { try CertificateAuthority.load(from: folder) } throws: {
                "\($0)".contains("\(path) may not sign certificates (its keyUsage lacks keyCertSign)")
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
            let authority = try CertificateAuthority.load(from: folder)
            // Named after its fingerprint, so that a remade CA is an entry of its own.
            let nickname = "tracksnap \(authority.fingerprint.filter { $0 != ":" }.prefix(16))"
            #expect(trusted.stdout.contains("nss: added as \"\(nickname)\" to \(database)"), "\(trusted.stdout)")
            #expect(trusted.stdout.contains("to remove: tracksnap ca --ca-dir \(folder) --untrust nss"))
            let listed = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["certutil", "-d", database, "-L", "-n", nickname, "-a"])
            // certutil writes PEM with CRLF line ends.
            #expect(
                listed.stdout.replacingOccurrences(of: "\r", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
                    == (try String(contentsOfFile: authority.certificatePath, encoding: .utf8)).trimmingCharacters(
                        in: .whitespacesAndNewlines))
        }
    }
}

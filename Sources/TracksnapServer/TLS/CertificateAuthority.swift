import Crypto
import Foundation
import SwiftASN1
import X509

/// The local certificate authority that signs the certificates `serve --intercept` shows
/// clients: a P-256 key readable by its owner only (`ca-key.pem`, mode 0600) and a
/// self-signed certificate (`ca-cert.pem`), in a per-user folder.
///
/// ```swift
/// let (authority, created) = try CertificateAuthority.loadOrCreate(in: CertificateAuthority.defaultDirectory())
/// print(authority.certificatePath, authority.fingerprint, authority.spkiHash)
/// ```
///
/// Anyone holding the key can make certificates that a device trusting the authority accepts
/// for any host: it never leaves the folder, and `serve` refuses a key others can read.
public struct CertificateAuthority: Sendable {
    public static let keyFileName = "ca-key.pem"
    public static let certificateFileName = "ca-cert.pem"

    /// The folder holding the two files.
    public let directory: String
    public let certificate: Certificate
    let privateKey: Certificate.PrivateKey
    /// The certificate in DER form.
    public let certificateDER: [UInt8]

    public var keyPath: String { (directory as NSString).appendingPathComponent(Self.keyFileName) }
    public var certificatePath: String { (directory as NSString).appendingPathComponent(Self.certificateFileName) }

    /// The SHA-256 of the certificate, as colon-separated upper-case hex (`openssl x509 -fingerprint -sha256`).
    public var fingerprint: String {
        SHA256.hash(data: certificateDER).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The base64 SHA-256 of the certificate's SubjectPublicKeyInfo (DER): what Chromium's
    /// `--ignore-certificate-errors-spki-list` and certificate pinning take.
    public let spkiHash: String

    /// The per-user folder: `~/Library/Application Support/tracksnap/ca` on macOS,
    /// `$XDG_DATA_HOME/tracksnap/ca` (by default `~/.local/share/tracksnap/ca`) elsewhere.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
            return "\(home)/Library/Application Support/tracksnap/ca"
        #else
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return "\(data)/tracksnap/ca" }
            return "\(home)/.local/share/tracksnap/ca"
        #endif
    }

    /// Loads the authority in `directory`, creating it first when the folder holds neither file.
    ///
    /// - Returns: the authority, and whether it was created now.
    /// - Throws: `CertificateAuthorityError` when the folder cannot be made, one file is there
    ///   without the other, or a file is unreadable, malformed, or the key can be read by others.
    public static func loadOrCreate(in directory: String) throws(CertificateAuthorityError) -> (
        CertificateAuthority, created: Bool
    ) {
        let manager = FileManager.default
        let paths = paths(directory)
        switch (manager.fileExists(atPath: paths.key), manager.fileExists(atPath: paths.certificate)) {
        case (false, false):
            try create(in: directory)
            return (try load(from: directory), true)
        case (true, false), (false, true):
            let (present, missing) =
                manager.fileExists(atPath: paths.key)
                ? (keyFileName, certificateFileName) : (certificateFileName, keyFileName)
            throw CertificateAuthorityError(
                "\(directory) holds \(present) but not \(missing): remove the folder (and untrust the old CA) to make a new one"
            )
        case (true, true):
            return (try load(from: directory), false)
        }
    }

    /// Loads the authority in `directory`, as `serve --intercept` does.
    ///
    /// - Throws: `CertificateAuthorityError` when a file is missing, unreadable or malformed,
    ///   when the key can be read or written by its group or others, or belongs to another certificate.
    public static func load(from directory: String) throws(CertificateAuthorityError) -> CertificateAuthority {
        let paths = paths(directory)
        for path in [paths.key, paths.certificate] where !FileManager.default.fileExists(atPath: path) {
            throw CertificateAuthorityError(
                "\(path) does not exist: run `tracksnap ca --ca-dir \(directory)` to create the certificate authority")
        }
        var status = stat()
        guard stat(paths.key, &status) == 0 else {
            throw CertificateAuthorityError("cannot read \(paths.key): \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw CertificateAuthorityError(
                "the CA key \(paths.key) can be used by others (mode \(String(mode, radix: 8))): anyone who reads it can impersonate "
                    + "any site to a device that trusts the CA. Run `chmod 600 \(paths.key)`, or remove the folder and run `tracksnap ca` again"
            )
        }
        let keyText = try read(paths.key)
        let certificateText = try read(paths.certificate)
        let privateKey: Certificate.PrivateKey
        do {
            privateKey = try Certificate.PrivateKey(pemEncoded: keyText)
        } catch {
            throw CertificateAuthorityError("\(paths.key) is not a PEM private key: \(error)")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: certificateText)
        } catch {
            throw CertificateAuthorityError("\(paths.certificate) is not a PEM certificate: \(error)")
        }
        guard certificate.publicKey == privateKey.publicKey else {
            throw CertificateAuthorityError(
                "\(paths.key) is not the key of \(paths.certificate): remove the folder and run `tracksnap ca` again")
        }
        var serializer = DER.Serializer()
        var publicKey = DER.Serializer()
        do {
            try serializer.serialize(certificate)
            try publicKey.serialize(certificate.publicKey)
        } catch {
            throw CertificateAuthorityError("\(paths.certificate) cannot be serialized again: \(error)")
        }
        return CertificateAuthority(
            directory: directory, certificate: certificate, privateKey: privateKey,
            certificateDER: serializer.serializedBytes,
            spkiHash: Data(SHA256.hash(data: publicKey.serializedBytes)).base64EncodedString())
    }

    private static func paths(_ directory: String) -> (key: String, certificate: String) {
        let folder = directory as NSString
        return (folder.appendingPathComponent(keyFileName), folder.appendingPathComponent(certificateFileName))
    }

    private static func read(_ path: String) throws(CertificateAuthorityError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CertificateAuthorityError("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Makes a new key and certificate and writes them, the key created with mode 0600 (never
    /// widened then narrowed), each file complete before it takes its name.
    private static func create(in directory: String) throws(CertificateAuthorityError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CertificateAuthorityError("cannot create \(directory): \(error.localizedDescription)")
        }
        let key = P256.Signing.PrivateKey()
        let privateKey = Certificate.PrivateKey(key)
        let now = Date()
        let name: DistinguishedName
        let certificate: Certificate
        do {
            name = try DistinguishedName {
                OrganizationName("tracksnap")
                CommonName("tracksnap local CA \(ProcessInfo.processInfo.hostName)")
            }
            let identifier = SubjectKeyIdentifier(hash: privateKey.publicKey)
            certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: privateKey.publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(5 * 365 * 86400),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    identifier
                },
                issuerPrivateKey: privateKey)
        } catch {
            throw CertificateAuthorityError("cannot make the CA certificate: \(error)")
        }
        let paths = paths(directory)
        let keyPEM: String
        let certificatePEM: String
        do {
            keyPEM = try privateKey.serializeAsPEM().pemString + "\n"
            certificatePEM = try certificate.serializeAsPEM().pemString + "\n"
        } catch {
            throw CertificateAuthorityError("cannot encode the CA as PEM: \(error)")
        }
        try writeNew(paths.key, keyPEM, mode: 0o600)
        try writeNew(paths.certificate, certificatePEM, mode: 0o644)
    }

    /// Writes a file that must not exist yet: the bytes go to a temporary file created with
    /// `mode` (O_EXCL), which is then linked to its name, so that nobody ever sees a partial
    /// file or one with a wider mode, and an existing file is never replaced.
    private static func writeNew(_ path: String, _ text: String, mode: mode_t) throws(CertificateAuthorityError) {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw CertificateAuthorityError("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        defer { unlink(temporary) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw CertificateAuthorityError("cannot write \(temporary): \(reason)")
            }
            written += count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced else {
            throw CertificateAuthorityError("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        guard link(temporary, path) == 0 else {
            throw CertificateAuthorityError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}

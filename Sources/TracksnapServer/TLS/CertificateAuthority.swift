import Crypto
public import Foundation
import SwiftASN1
public import X509

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
/// for any host: it never leaves the folder, and every load refuses a folder or file another
/// user owns or may write, a key others can read, and a certificate the key did not sign.
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
    public var fingerprint: String { Self.fingerprint(ofDER: certificateDER) }

    /// The SHA-256 fingerprint of a certificate in DER form, as `fingerprint` writes it.
    package static func fingerprint(ofDER der: [UInt8]) -> String {
        SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The fingerprints of the certificates in PEM text (a trust store's file, `certutil -a`'s
    /// output, CRLF line ends too), in their order; nil when the text is not PEM.
    package static func fingerprints(inPEM text: String) -> [String]? {
        let documents = try? PEMDocument.parseMultiple(pemString: text.replacingOccurrences(of: "\r\n", with: "\n"))
        return documents?.filter { $0.discriminator == "CERTIFICATE" }.map { fingerprint(ofDER: $0.derBytes) }
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
    /// - Throws: `CertificateAuthorityError` when the folder cannot be made, is not safe (see
    ///   `load(from:)`), one file is there without the other, or `load(from:)` refuses them.
    public static func loadOrCreate(in directory: String) throws(CertificateAuthorityError) -> (
        CertificateAuthority, created: Bool
    ) {
        try Folder.create(directory)
        let folder = try Folder(opening: directory)
        switch (folder.contains(keyFileName), folder.contains(certificateFileName)) {
        case (false, false):
            try create(in: folder)
            return (try load(from: folder), true)
        case (true, false), (false, true):
            let (present, missing) =
                folder.contains(keyFileName) ? (keyFileName, certificateFileName) : (certificateFileName, keyFileName)
            throw CertificateAuthorityError(
                "\(directory) holds \(present) but not \(missing): remove the folder (and untrust the old CA) to make a new one"
            )
        case (true, true):
            return (try load(from: folder), false)
        }
    }

    /// Loads the authority in `directory`, as `serve --intercept` does, having checked it as ssh
    /// checks its keys: the folder and both files belong to the effective user, neither the folder
    /// nor the files may be written by its group or others, and the key not read by them either;
    /// the certificate is the key's own: signed by it, a CA (`CA:TRUE`, `keyCertSign`), and
    /// within its validity.
    ///
    /// - Throws: `CertificateAuthorityError` naming the path and what is wrong with it.
    public static func load(from directory: String) throws(CertificateAuthorityError) -> CertificateAuthority {
        try load(from: Folder(opening: directory))
    }

    private static func load(from folder: Folder) throws(CertificateAuthorityError) -> CertificateAuthority {
        let keyPath = folder.path(of: keyFileName)
        let certificatePath = folder.path(of: certificateFileName)
        for (name, path) in [(keyFileName, keyPath), (certificateFileName, certificatePath)]
        where !folder.contains(name) {
            throw CertificateAuthorityError(
                "\(path) does not exist: run `tracksnap ca --ca-dir \(folder.path)` to create the certificate authority"
            )
        }
        let keyText = try folder.contents(of: keyFileName, secret: true)
        let certificateText = try folder.contents(of: certificateFileName, secret: false)
        let privateKey: Certificate.PrivateKey
        do {
            privateKey = try Certificate.PrivateKey(pemEncoded: keyText)
        } catch {
            throw CertificateAuthorityError("\(keyPath) is not a PEM private key: \(error)")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: certificateText)
        } catch {
            throw CertificateAuthorityError("\(certificatePath) is not a PEM certificate: \(error)")
        }
        guard certificate.publicKey == privateKey.publicKey else {
            throw CertificateAuthorityError(
                "\(keyPath) is not the key of \(certificatePath): remove the folder and run `tracksnap ca` again")
        }
        try check(certificate, at: certificatePath)
        var serializer = DER.Serializer()
        var publicKey = DER.Serializer()
        do {
            try serializer.serialize(certificate)
            try publicKey.serialize(certificate.publicKey)
        } catch {
            throw CertificateAuthorityError("\(certificatePath) cannot be serialized again: \(error)")
        }
        return CertificateAuthority(
            directory: folder.path, certificate: certificate, privateKey: privateKey,
            certificateDER: serializer.serializedBytes,
            spkiHash: Data(SHA256.hash(data: publicKey.serializedBytes)).base64EncodedString())
    }

    /// Refuses a certificate that carries the key's public key without being the CA that key
    /// made: one signed by another key (whatever its subject and dates say), one that is not a CA
    /// or may not sign certificates, one outside its validity.
    private static func check(_ certificate: Certificate, at path: String, now: Date = Date())
        throws(CertificateAuthorityError)
    {
        let remake = "remove the folder (and untrust the old CA) and run `tracksnap ca` again"
        guard certificate.issuer == certificate.subject,
            certificate.publicKey.isValidSignature(certificate.signature, for: certificate)
        else {
            throw CertificateAuthorityError(
                "\(path) is not signed by the CA's own key (\(keyFileName)): someone else made it; \(remake)")
        }
        let constraints: BasicConstraints?
        let usage: KeyUsage?
        do {
            constraints = try certificate.extensions.basicConstraints
            usage = try certificate.extensions.keyUsage
        } catch {
            throw CertificateAuthorityError("\(path) has a malformed extension: \(error)")
        }
        guard case .isCertificateAuthority = constraints else {
            throw CertificateAuthorityError("\(path) is not a CA certificate (no basicConstraints CA:TRUE); \(remake)")
        }
        guard usage?.keyCertSign == true else {
            throw CertificateAuthorityError(
                "\(path) may not sign certificates (its keyUsage lacks keyCertSign); \(remake)")
        }
        let day = Date.ISO8601FormatStyle().year().month().day()
        guard certificate.notValidBefore <= now else {
            throw CertificateAuthorityError(
                "\(path) is not valid before \(certificate.notValidBefore.formatted(day)): is this machine's clock right?"
            )
        }
        guard now <= certificate.notValidAfter else {
            throw CertificateAuthorityError(
                "\(path) expired on \(certificate.notValidAfter.formatted(day)); \(remake)")
        }
    }

    /// Makes a new key and certificate and writes them into the checked folder, the key created
    /// with mode 0600 (never widened then narrowed), each file complete before it takes its name.
    private static func create(in folder: Folder) throws(CertificateAuthorityError) {
        let key = P256.Signing.PrivateKey()
        let privateKey = Certificate.PrivateKey(key)
        let now = Date()
        let name: DistinguishedName
        let certificate: Certificate
        do {
            // The random unit makes each CA's subject its own: NSS files certificates of one
            // subject under one nickname, and could not list or remove a remade CA apart from
            // the one before it.
            name = try DistinguishedName {
                OrganizationName("tracksnap")
                OrganizationalUnitName(String(format: "%016llx", UInt64.random(in: .min ... .max)))
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
        let keyPEM: String
        let certificatePEM: String
        do {
            keyPEM = try privateKey.serializeAsPEM().pemString + "\n"
            certificatePEM = try certificate.serializeAsPEM().pemString + "\n"
        } catch {
            throw CertificateAuthorityError("cannot encode the CA as PEM: \(error)")
        }
        try folder.writeNew(keyFileName, keyPEM, mode: 0o600)
        try folder.writeNew(certificateFileName, certificatePEM, mode: 0o644)
    }
}

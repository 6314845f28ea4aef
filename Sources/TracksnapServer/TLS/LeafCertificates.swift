import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import Synchronization
import X509

/// The TLS contexts `serve --intercept` answers handshakes with: for each host, a certificate
/// signed by the local CA, made on first use and kept in memory only, the most recently used
/// `capacity` of them within `maximumBytes`. Only host names and IP addresses get one
/// (`ServerName`): a name a client makes up (`*`, control characters, 60 KB) is refused.
///
/// ```swift
/// let leaves = LeafCertificates(authority: authority)
/// let context = try leaves.context(for: "api.segment.io")  // CN and SAN api.segment.io, 7 days
/// ```
///
/// Every leaf shares one P-256 key made at start: the certificates differ only by name.
/// A certificate lives `validity` (days, not years: a leaked one is soon worthless); it is made
/// again once half of that has gone, so that a long-running server never shows an expired one.
final class LeafCertificates: Sendable {
    static let validity: TimeInterval = 7 * 86400
    /// ALPN, in the server's order of preference.
    static let applicationProtocols = ["h2", "http/1.1"]

    /// What one context is taken to cost in memory beyond its certificate's DER: BoringSSL's
    /// `SSL_CTX` and the parsed certificate (measured: 10.6 KiB a context in all, for names of
    /// 45 bytes).
    static let contextOverhead = 10 * 1024

    private struct Entry {
        var context: NIOSSLContext
        var made: Date
        var lastUsed: UInt64
        var bytes: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }

    private let authority: CertificateAuthority
    private let key: Certificate.PrivateKey
    private let sslKey: NIOSSLPrivateKey
    private let issuer: NIOSSLCertificate
    private let capacity: Int
    private let maximumBytes: Int
    private let protocols: [String]
    private let state = Mutex(State())

    /// - Parameters:
    ///   - capacity: the most hosts whose contexts are kept.
    ///   - maximumBytes: the most memory they are taken to use (`bytes`).
    ///   - applicationProtocols: offered by ALPN.
    init(
        authority: CertificateAuthority, capacity: Int = 1000, maximumBytes: Int = 16 * 1024 * 1024,
        applicationProtocols: [String] = applicationProtocols
    ) throws {
        self.authority = authority
        protocols = applicationProtocols
        let key = P256.Signing.PrivateKey()
        self.key = Certificate.PrivateKey(key)
        sslKey = try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)
        issuer = try NIOSSLCertificate(bytes: authority.certificateDER, format: .der)
        self.capacity = max(1, capacity)
        self.maximumBytes = maximumBytes
    }

    /// How many hosts have a certificate in memory now.
    var count: Int { state.withLock { $0.entries.count } }

    /// The memory the contexts kept are taken to use: each one's certificate and `contextOverhead`.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The server context for `host` (a name or an IP literal), made now if it has none or its
    /// certificate is past half its life.
    ///
    /// - Throws: `LeafCertificateError` when `host` is neither a host name nor an IP address;
    ///   the error of signing or of BoringSSL otherwise.
    func context(for host: String) throws -> NIOSSLContext {
        if let problem = ServerName.problem(with: host) { throw LeafCertificateError(message: problem) }
        let name = host.lowercased()
        let now = Date()
        let cached = state.withLock { state -> NIOSSLContext? in
            guard var entry = state.entries[name], now.timeIntervalSince(entry.made) < Self.validity / 2 else {
                return nil
            }
            state.clock += 1
            entry.lastUsed = state.clock
            state.entries[name] = entry
            return entry.context
        }
        if let cached { return cached }
        // Made outside the lock: signing and building a context take a while, and two threads
        // making the same host's at once only waste one.
        let leaf = try certificateDER(for: name, now: now)
        let context = try makeContext(leaf: leaf)
        state.withLock { state in
            state.clock += 1
            let entry = Entry(
                context: context, made: now, lastUsed: state.clock, bytes: leaf.count + Self.contextOverhead)
            state.bytes += entry.bytes - (state.entries.updateValue(entry, forKey: name)?.bytes ?? 0)
            // The least recently used go first; the one just made stays, whatever it costs.
            while state.entries.count > capacity || (state.bytes > maximumBytes && state.entries.count > 1),
                let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key,
                let removed = state.entries.removeValue(forKey: oldest)
            {
                state.bytes -= removed.bytes
            }
        }
        return context
    }

    /// A certificate for `host` signed by the CA, as DER.
    func certificateDER(for host: String, now: Date = Date()) throws -> [UInt8] {
        let subjectName: GeneralName
        if let address = IPAddress.parse(host) {
            switch address {
            case .v4(let bytes), .v6(let bytes): subjectName = .ipAddress(ASN1OctetString(contentBytes: bytes[...]))
            }
        } else {
            subjectName = .dnsName(host)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.validity),
            issuer: authority.certificate.subject,
            subject: try DistinguishedName {
                OrganizationName("tracksnap")
                CommonName(String(host.prefix(64)))
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([subjectName])
                AuthorityKeyIdentifier(
                    keyIdentifier: SubjectKeyIdentifier(hash: authority.certificate.publicKey).keyIdentifier)
            },
            issuerPrivateKey: authority.privateKey)
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    private func makeContext(leaf der: [UInt8]) throws -> NIOSSLContext {
        let leaf = try NIOSSLCertificate(bytes: der, format: .der)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(leaf), .certificate(issuer)], privateKey: .privateKey(sslKey))
        configuration.applicationProtocols = protocols
        return try NIOSSLContext(configuration: configuration)
    }
}

/// A name no certificate is made for, and why.
struct LeafCertificateError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

// A test imports TracksnapTestingServer alone: it sees the assertions and the types a test names
// (TracksnapTesting's face), the server and its configuration, and the certificate authority an
// intercepting server's clients trust. Symbols, not the whole server module (`make public-api`).
@_exported import TracksnapTesting
@_exported import class TracksnapServer.CaptureServer
@_exported import struct TracksnapServer.CaptureServerError
@_exported import struct TracksnapServer.CertificateAuthority
@_exported import struct TracksnapServer.Interception

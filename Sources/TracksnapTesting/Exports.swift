// What `import TracksnapTesting` brings into a test's scope besides the assertions: the types a
// test names. Capturing and answering (`CaptureMode`, `CaptureResponse`, `CaptureSession`), a
// server's client (`TracksnapClient`, its error), what was captured and how a run records
// (`CapturedRequest`, `RecordMode`, the `JSONValue` its body reads as), what `assertTracking`
// returns (`SnapshotResult`, its `Finding`s; what their members hold, `FindingCode` or a
// server's `ValidationReport`, is used through them, unnamed), cassette matching and the consent a
// run declares. Symbols, not whole modules, as hummingbird's `Exports.swift` does: everything else
// (decoders, filters and validators of one's own, profiles, plans, rules, the validator pipeline)
// is `TracksnapExtensions`' face, for code that extends or embeds tracksnap; a test that
// registers a decoder of its own imports it too. `make public-api` counts what each product
// brings (ARCHITECTURE.md).
@_exported import enum TracksnapCapture.CaptureMode
@_exported import struct TracksnapCapture.CaptureResponse
@_exported import class TracksnapCapture.CaptureSession
@_exported import struct TracksnapCapture.TracksnapClient
@_exported import struct TracksnapCapture.TracksnapClientError
@_exported import enum TracksnapJSON.JSONValue
@_exported import struct TracksnapReplay.CassetteMatching
@_exported import struct TracksnapTraffic.CapturedRequest
@_exported import enum TracksnapTraffic.RecordMode
@_exported import struct TracksnapValidation.ConsentDeclaration
@_exported import struct TracksnapValidation.Finding
@_exported import struct TracksnapValidation.SnapshotResult

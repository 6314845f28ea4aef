// A test imports TracksnapTesting alone: it sees the capture, the record modes, the captured
// requests and the results, the cassettes it replays, and the decoders it may register
// (`DecoderRegistry`: a `VendorDecoder` of its own that a profile names).
@_exported import TracksnapCapture
@_exported import TracksnapDecoders
@_exported import TracksnapJSON
@_exported import TracksnapModel
@_exported import TracksnapReplay
@_exported import TracksnapValidation

// A test imports TracksnapTesting alone: it sees the capture, the record modes, the captured
// requests and the results, and the cassettes it replays.
@_exported import TracksnapCapture
@_exported import TracksnapJSON
@_exported import TracksnapModel
@_exported import TracksnapReplay
@_exported import TracksnapValidation

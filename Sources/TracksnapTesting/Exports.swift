// A test imports TracksnapTesting alone: it sees the capture, the record modes and the results.
@_exported import TracksnapCapture
@_exported import TracksnapRecording
@_exported import TracksnapValidation

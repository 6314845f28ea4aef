// A test imports TracksnapTestingServer alone: it sees the assertions, the client, and the
// server's configuration.
@_exported import TracksnapServer
@_exported import TracksnapTesting

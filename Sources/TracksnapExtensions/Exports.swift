@_exported import TracksnapDecoders
@_exported import TracksnapJSON
@_exported import TracksnapReports
// What code that extends tracksnap imports, alone: the extension points (`VendorDecoder`,
// `RequestFilter`, `Validator`, `ReportFormat`), the `Extensions` a workspace carries them in,
// and the requests, events, snapshots and results they take and give.
@_exported import TracksnapSnapshot
@_exported import TracksnapTraffic
@_exported import TracksnapValidation

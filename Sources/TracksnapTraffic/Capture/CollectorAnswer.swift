/// What tracksnap answers in an analytics backend's place: the capture server's collector and
/// an in-process capture in respond mode.
///
/// Most SDKs look only at the status code; Mixpanel's check `status` in the body and Amplitude's
/// `code`, so the body carries both. The defaults of `CaptureServer.CollectorResponse` and
/// `CaptureMode.respond`, which are public, name it: hence `@usableFromInline`.
@usableFromInline
package enum CollectorAnswer {
    @usableFromInline package static let status = 200
    @usableFromInline package static let contentType = "application/json"
    @usableFromInline package static let body = #"{"code":200,"status":1}"#
}

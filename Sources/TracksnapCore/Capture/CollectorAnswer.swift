/// What tracksnap answers in an analytics backend's place: the capture server's collector and
/// an in-process capture in respond mode.
///
/// Most SDKs look only at the status code; Mixpanel's check `status` in the body and Amplitude's
/// `code`, so the body carries both.
public enum CollectorAnswer {
    public static let status = 200
    public static let contentType = "application/json"
    public static let body = #"{"code":200,"status":1}"#
}

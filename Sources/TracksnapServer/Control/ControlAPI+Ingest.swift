import Foundation
import TracksnapCore
import TracksnapModel

extension ControlAPI {
    /// `POST sessions/{id}/requests`: records requests captured elsewhere (an app's in-process
    /// capture reporting to the server) into the session, as if the server had received them.
    ///
    /// ```text
    /// POST /__tracksnap/sessions/s1/requests
    /// [{"method": "POST", "url": "https://api.segment.io/v1/track", "body": "{…}", "headers": […]}]
    /// → 200 {"recorded": 1, "session": "s1"}
    /// ```
    /// The body is a capture as `tracksnap validate --capture` reads it: a JSON array of capture
    /// records (what `GET` on the same path answers), NDJSON, or HAR, sent as
    /// `application/json` (the control API's guard asks that of every body). Each request keeps
    /// its method, URL, headers, body and `serverOrigin`; the server gives it its own id and
    /// time, attributes it to the session in the path, journals it, logs it, and wakes the
    /// session's waiters. A malformed body records nothing (400, naming the record and the
    /// member); an unknown session is 404.
    func ingest(_ id: String, _ request: IncomingRequest) -> Response {
        guard store.requests(inSession: id) != nil else { return noSession(id) }
        let requests: [CapturedRequest]
        do {
            requests = try CaptureFile.read(data: Data(request.body.readableBytesView), file: "body")
        } catch {
            return .error(
                .badRequest,
                "\(error.description); send a JSON array of capture records such as [{\"method\": \"GET\", \"url\": \"https://t.example/e?ev=view\"}]"
            )
        }
        for captured in requests {
            let recorded = store.recordAttributed(
                method: captured.method, url: captured.url, headers: captured.headers, body: captured.body,
                sessionHint: id,
                serverOrigin: captured.serverOrigin)
            // The app's own capture answered it (or its network did): no status is known here.
            requestLog?(RequestLogLine(request: recorded.request, attribution: recorded.attribution, status: nil))
        }
        return .json(.ok, .object(["recorded": .number(String(requests.count)), "session": .string(id)]))
    }
}

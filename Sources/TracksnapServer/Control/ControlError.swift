import NIOHTTP1
import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// Why a control call is refused: the status and the message of its `{"error": …}` body
/// (`ErrorAnswer`, `Error` in `Schemas/control-api.openapi.json`). Handlers throw it; the route
/// table (`ControlAPI.reply(to:)`) turns it into the answer, in one place.
///
/// ```swift
/// guard store.requests(inSession: id) != nil else { throw .notFound("no open session \"\(id)\"") }
/// ```
struct ControlError: Error, Sendable {
    var status: HTTPResponseStatus
    /// What was wrong, naming the field, the parameter or the session.
    var message: String
    /// Headers the refusal carries besides its body's (`Allow`, `WWW-Authenticate`).
    var headers: HTTPHeaders = HTTPHeaders()

    init(_ status: HTTPResponseStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// 400: the call itself is wrong (its body, a parameter, a file it names).
    static func badRequest(_ message: String) -> ControlError {
        ControlError(.badRequest, message)
    }

    /// 400 for a file the call named that cannot be used: each problem names the file under the
    /// root, as reports name files (`Workspace.display`), never by the server's own path to it.
    static func badRequest(_ error: InputError, shownBy workspace: Workspace) -> ControlError {
        ControlError(.badRequest, error, shownBy: workspace)
    }

    /// A file's problems with another status, each naming the file as `badRequest(_:shownBy:)` does.
    init(_ status: HTTPResponseStatus, _ error: InputError, shownBy workspace: Workspace) {
        var error = error
        for index in error.diagnostics.indices {
            error.diagnostics[index].file = workspace.display(error.diagnostics[index].file)
        }
        self.init(status, error.description)
    }

    /// 404: what the call names is not there.
    static func notFound(_ message: String) -> ControlError {
        ControlError(.notFound, message)
    }

    /// The answer: `{"error": message}` with the status, then the headers.
    var response: Response {
        var response = Response.error(status, message)
        response.headers.add(contentsOf: headers)
        return response
    }
}

/// What a control handler answers when it does not throw: a `Codable` answer of
/// `TracksnapTraffic`, which the route table encodes, or a whole `Response` for what serves bytes
/// (captured requests, a report, the inspector's page) or streams.
enum ControlAnswer: Sendable {
    /// A `Codable` answer, encoded as JSON with the status (`Response.answer`).
    case answer(HTTPResponseStatus, any Encodable & Sendable)
    case response(Response)

    var response: Response {
        switch self {
        case .answer(let status, let value): .answer(status, value)
        case .response(let response): response
        }
    }
}

/// What a control handler decided: an answer ready now, or work to run off the event loop; both
/// may throw a `ControlError`, which the route table answers.
enum ControlReply: Sendable {
    case now(ControlAnswer)
    case later(@Sendable () async throws(ControlError) -> ControlAnswer)

    /// The server's `Reply`, with a thrown `ControlError` answered as its `Response`.
    var reply: Reply {
        switch self {
        case .now(let answer):
            return .now(answer.response)
        case .later(let work):
            return .later {
                do throws(ControlError) {
                    return try await work().response
                } catch {
                    return error.response
                }
            }
        }
    }
}

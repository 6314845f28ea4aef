public import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

extension Cassette {
    /// A warning for each interaction that holds what looks like a credential, as `tracksnap
    /// lint` prints them: what recording would have hidden (`Redactor`, the one rule for
    /// secrets: names such as `Authorization`, `X-Amz-Signature`, `session` or an OAuth `code`,
    /// and shapes such as JWTs, AWS and Google keys and card numbers), in another tool's
    /// cassette or one edited by hand. The warning says where, never the value.
    ///
    /// ```swift
    /// let read = try Cassette.read(path: "Cassettes/login.yml")
    /// read.cassette.credentialWarnings(file: "Cassettes/login.yml")
    /// // Cassettes/login.yml: warning: interaction 1: the answer's header X-Session-Id looks like a credential; …
    /// ```
    public func credentialWarnings(file: String) -> [Diagnostic] {
        interactions.enumerated().compactMap { index, interaction in
            let request = interaction.request.captured
            let answer = CapturedRequest(
                id: "", method: "", url: "", headers: interaction.response.headers,
                body: interaction.response.body?.captured)
            let redactor = Redactor(requests: [request, answer]).keepingPersonalData
            let (hiddenRequest, hiddenAnswer) = (redactor.redact(request), redactor.redact(answer))
            var places: [String] = []
            if hiddenRequest.url != request.url { places.append("the request's URL") }
            places += Self.changedHeaders(request.headers, hiddenRequest.headers).map { "the request's header \($0)" }
            if hiddenRequest.body != request.body { places.append("the request's body") }
            places += Self.changedHeaders(answer.headers, hiddenAnswer.headers).map { "the answer's header \($0)" }
            if hiddenAnswer.body != answer.body { places.append("the answer's body") }
            guard !places.isEmpty else { return nil }
            return Diagnostic(
                .warning, file: file,
                message:
                    "interaction \(index + 1): \(places.joined(separator: ", ")) \(places.count == 1 ? "holds" : "hold") what looks like a credential; replace it with \(Secrets.placeholderText) before committing the cassette (tracksnap's recording does)"
            )
        }
    }

    /// The names of the headers whose values redaction changed.
    private static func changedHeaders(_ headers: [CapturedRequest.Header], _ hidden: [CapturedRequest.Header])
        -> [String]
    {
        zip(headers, hidden).filter { $0.value != $1.value }.map(\.0.name)
    }
}

extension Interaction {
    /// The interaction as a recording keeps it, the one rule for what tracksnap writes to a
    /// cassette (`CassettePlayer.record`, `Cassette.learning`): a gzip'd answer decoded
    /// (`decodedForRecording`, within `limit` bytes), and the secrets of the request and the
    /// answer hidden by one `Redactor` (`Secrets`: headers, values under secret keys at any
    /// depth of any encoding, shapes, every copy of one in the other), personal data kept, as
    /// the backend answered it.
    package func recorded(decodingUpTo limit: Int) -> Interaction {
        let response = response.decodedForRecording(limit: limit)
        // The response as a request, so that the one Redactor reads and rewrites it the same way.
        let answer = CapturedRequest(
            id: "", method: "", url: response.url ?? "", headers: response.headers, body: response.body?.captured)
        let redactor = Redactor(requests: [request.captured, answer]).keepingPersonalData
        let hidden = redactor.redact(answer)
        var safe = Interaction.Response(status: response.status, headers: hidden.headers, bytes: hidden.bodyBytes ?? [])
        safe.url = response.url.map { _ in hidden.url }
        var asked = Interaction.Request(redactor.redact(request.captured))
        asked.patterns = request.patterns
        return Interaction(request: asked, response: safe, recordedAt: recordedAt)
    }
}

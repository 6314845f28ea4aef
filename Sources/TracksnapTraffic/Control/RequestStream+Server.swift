extension RequestStream {
    /// The `server` event's data: the bounds of what the server keeps, which the inspector keeps
    /// as well, and, once the answers' bytes first make it forget older answers, a sentence
    /// saying so (`StreamServer` in `Schemas/control-api.openapi.json`).
    ///
    /// ```json
    /// {"answer_bytes_kept": 67108864, "answers_kept": 10000, "max_requests": 100000}
    /// ```
    package struct Server: Sendable, Equatable, Codable {
        /// The most requests the server holds (`serve --max-requests`); nil (written `null`)
        /// when there is no limit.
        package var maxRequests: Int?
        /// The most answers the server keeps.
        package var answersKept: Int
        /// The most bytes the kept answers hold.
        package var answerBytesKept: Int
        /// Said once the server first forgets the answer of a request it still holds.
        package var answersForgotten: String?

        package init(maxRequests: Int?, answersKept: Int, answerBytesKept: Int, answersForgotten: String? = nil) {
            self.maxRequests = maxRequests
            self.answersKept = answersKept
            self.answerBytesKept = answerBytesKept
            self.answersForgotten = answersForgotten
        }

        private enum CodingKeys: String, CodingKey {
            case maxRequests = "max_requests"
            case answersKept = "answers_kept"
            case answerBytesKept = "answer_bytes_kept"
            case answersForgotten = "answers_forgotten"
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Required, and null when there is no limit: present either way.
            maxRequests = try container.decode(Int?.self, forKey: .maxRequests)
            answersKept = try container.decode(Int.self, forKey: .answersKept)
            answerBytesKept = try container.decode(Int.self, forKey: .answerBytesKept)
            answersForgotten = try container.decodeIfPresent(String.self, forKey: .answersForgotten)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(maxRequests, forKey: .maxRequests)
            try container.encode(answersKept, forKey: .answersKept)
            try container.encode(answerBytesKept, forKey: .answerBytesKept)
            try container.encodeIfPresent(answersForgotten, forKey: .answersForgotten)
        }
    }

    /// The `live` event's data: how many requests were sent before it, all the server held when
    /// the reader connected; each one after is new (`StreamLive`).
    ///
    /// ```json
    /// {"held": 2}
    /// ```
    package struct Live: Sendable, Equatable, Codable {
        package var held: Int

        package init(held: Int) {
            self.held = held
        }
    }
}

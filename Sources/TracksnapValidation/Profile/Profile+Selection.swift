package import Patterns
public import TracksnapDecoders
import TracksnapSnapshot
public import TracksnapTraffic

/// The requests a profile's filter selects, with what its decoders made of each, and those a
/// filter pattern could not decide on: what a `Validator`, the vendor rules, the personal-data and
/// consent checks, the plans and recording all read, so that one validation selects and decodes
/// once (`Profile.select`).
///
/// ```swift
/// let selection = profile.select(requests, decodingEvents: true)
/// for (index, decoded) in zip(selection.selected, selection.decoded) { … requests[index] … }
/// ```
public struct Selection: Sendable {
    /// Everything captured, in capture order, before filtering.
    public let requests: [CapturedRequest]
    /// Indices into `requests` of the selected ones, in capture order.
    public package(set) var selected: [Int] = []
    /// What the profile's decoders made of each selected request (`selected`'s order);
    /// `.unclaimed` for all when events were not asked for.
    public package(set) var decoded: [DecodeResult] = []
    /// Requests a filter pattern hit PCRE2's match or depth limit on: neither selected nor left
    /// out silently, but reported.
    package var undecided: [(index: Int, error: PatternError)] = []
    /// Requests the filter was not tried on, in capture order: once a filter pattern hit PCRE2's
    /// limit on `limitHits` requests, each further try would cost as much (a million steps, a few
    /// milliseconds), so the rest are neither selected nor left out, but reported as one.
    package var untried: (indices: [Int], error: PatternError)?

    package init(requests: [CapturedRequest]) {
        self.requests = requests
    }

    /// How many requests a filter may fail to decide on before it is not tried on the rest.
    package static let limitHits = 3

    /// How a person reads an undecided request: which one, and which pattern failed how.
    package func message(_ item: (index: Int, error: PatternError)) -> String {
        let request = requests[item.index]
        return
            "the profile's filter cannot decide on request #\(item.index + 1) \(request.method) \(request.urlWithoutQuery): "
            + "pattern \"\(item.error.pattern)\": \(item.error.message)"
    }

    /// How a person reads the requests the filter was not tried on; nil when there are none.
    package var untriedMessage: String? {
        guard let untried, let first = untried.indices.first, let last = untried.indices.last else { return nil }
        let which = untried.indices.count == 1 ? "#\(first + 1)" : "#\(first + 1) to #\(last + 1)"
        return
            "the profile's filter was not tried on \(untried.indices.count) more request\(untried.indices.count == 1 ? "" : "s") (\(which)): "
            + "pattern \"\(untried.error.pattern)\" hit PCRE2's limit (\(untried.error.message)) on \(Self.limitHits) requests "
            + "already, and each try costs as much; make the pattern one that cannot backtrack without end"
    }
}

extension Profile {
    /// Whether `tracksnap record` writes decoded events rather than the requests that carried
    /// them: the profile names decoders, or reads protobuf by its descriptor set.
    package var recordsEvents: Bool { decoders.recordsEvents || !messageDecoders.isEmpty }

    /// Runs the filter over the requests, and the decoders over the selected ones.
    ///
    /// ```swift
    /// let selection = profile.select(requests, decodingEvents: true)
    /// selection.selected      // [0, 3, 4]
    /// selection.decoded       // [.events([…]), .unclaimed, .failed(…)]
    /// selection.undecided     // a request whose path made a filter pattern hit PCRE2's limit
    /// selection.untried       // the requests after `Selection.limitHits` of those, not tried
    /// ```
    package func select(_ requests: [CapturedRequest], decodingEvents: Bool = false) -> Selection {
        var selection = Selection(requests: requests)
        let decoders = decodingEvents ? messageDecoders + resolvedDecoders : []
        for (index, request) in requests.enumerated() {
            if selection.undecided.count >= Selection.limitHits, let last = selection.undecided.last {
                // Fails closed: past the bound, every request is reported, none selected.
                selection.untried = (Array(index..<requests.count), last.error)
                break
            }
            do throws(PatternError) {
                guard try filter.decide(request) else { continue }
                selection.selected.append(index)
                selection.decoded.append(decoders.isEmpty ? .unclaimed : Decoders.decode(request, using: decoders))
            } catch {
                selection.undecided.append((index, error))
            }
        }
        return selection
    }
}

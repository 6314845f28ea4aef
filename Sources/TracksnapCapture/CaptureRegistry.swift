import Synchronization

/// The installed captures, each reached through its own URLProtocol class.
///
/// URLProtocol classes are global types, and on Linux a URLProtocol sees neither the
/// configuration's `httpAdditionalHeaders` nor properties set with `URLProtocol.setProperty`,
/// so nothing in a request can say which capture it belongs to. Instead every installation
/// gets a class of its own, a distinct specialization of `SlotProtocol`, and the registry maps
/// that class to its capture: two tests capturing in parallel never see each other's requests.
enum CaptureRegistry {
    private struct State {
        var nextSlot = 1
        var sinks: [ObjectIdentifier: CaptureSink] = [:]
    }

    private static let state = Mutex(State())

    /// Registers a capture under a class no other capture has.
    ///
    /// - Parameter make: builds the capture around its class.
    static func register(_ make: (CaptureURLProtocol.Type) -> CaptureSink) -> CaptureSink {
        state.withLock { state in
            let sink = make(SlotProtocol<SlotRoot>.forSlot(state.nextSlot))
            state.nextSlot += 1
            state.sinks[ObjectIdentifier(sink.protocolClass)] = sink
            return sink
        }
    }

    static func sink(for protocolClass: AnyClass) -> CaptureSink? {
        state.withLock { $0.sinks[ObjectIdentifier(protocolClass)] }
    }
}

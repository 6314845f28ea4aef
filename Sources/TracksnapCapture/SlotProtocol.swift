/// A URLProtocol class of one capture: each slot number is a distinct specialization
/// (`SlotProtocol<SlotBit1<SlotBit0<SlotRoot>>>` is slot 5), so each installation has a class
/// of its own. Swift instantiates generic class metadata at run time, so there is no limit.
final class SlotProtocol<Slot>: CaptureURLProtocol {
    /// The class for a slot number, built from its bits.
    static func forSlot(_ slot: Int) -> CaptureURLProtocol.Type {
        build(slot, SlotRoot.self)
    }

    private static func build<Tail>(_ remaining: Int, _: Tail.Type) -> CaptureURLProtocol.Type {
        if remaining == 0 { return SlotProtocol<Tail>.self }
        return remaining & 1 == 0
            ? build(remaining >> 1, SlotBit0<Tail>.self)
            : build(remaining >> 1, SlotBit1<Tail>.self)
    }
}

enum SlotRoot {}
enum SlotBit0<Tail> {}
enum SlotBit1<Tail> {}

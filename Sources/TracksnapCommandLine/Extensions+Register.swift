import TracksnapDecoders
import TracksnapSnapshot
import TracksnapValidation

extension Extensions {
    /// Adds these to the process-wide registries, which every `Workspace` made without
    /// extensions of its own reads, and `serve` when it starts: the one place the command line's
    /// subcommands learn them. The built-in `snapshot` validator that every `Extensions` holds
    /// is not registered again over one registered before.
    func register() {
        for (name, validator) in validators where !(name == "snapshot" && validator is SnapshotValidator) {
            ValidatorRegistry.register(name, validator)
        }
        for (name, filter) in filters { FilterRegistry.register(name, filter) }
        for decoder in decoders { DecoderRegistry.register(decoder) }
    }
}

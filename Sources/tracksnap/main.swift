// The `tracksnap` executable: the command line with every subcommand and no extensions of its
// own (those registered with a profile's names come from an executable of your own:
// Documentation/SnapshotsAndProfiles.md, "A decoder of your own").
import TracksnapCommandLineServer

TracksnapServerCommand.main()

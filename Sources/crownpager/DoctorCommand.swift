import ArgumentParser

/// `crownpager doctor`: checks of the wiring, one subcommand per device.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the display and the crown on this machine, and say what to put in the configuration.",
        subcommands: [DoctorDisplayCommand.self, DoctorCrownCommand.self, DoctorMQTTCommand.self]
    )
}

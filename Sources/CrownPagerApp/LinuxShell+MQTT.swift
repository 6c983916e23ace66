import CrownVocabulary
import LinuxSystem
import PagerEngine

extension LinuxShell {
    /// Makes the MQTT bridge `[mqtt]` asks for; it connects in the loop, never blocking it.
    func openMQTT() throws(CrownPagerError) {
        guard mqtt == nil else { return }
        mqtt = try MQTTBridge(configuration, version: softwareVersion, palette: cameraPalette)
        if let mqtt {
            OperatorLog.info(
                "crownpager: mqtt: \(mqtt.client.options.host):\(mqtt.client.options.port) as \(mqtt.base), "
                    + "client id \(mqtt.identity.clientID) (\(mqtt.identity.origin))")
        }
    }

    /// The MQTT connection's descriptor, for poll(2), while there is one.
    var mqttDescriptors: [Int32] { mqtt?.client.descriptor.map { [$0] } ?? [] }

    /// The MQTT connection's descriptor while bytes wait to go out on it: poll(2) wakes when the
    /// socket can take them.
    var mqttWriting: Set<Int32> {
        guard let client = mqtt?.client, client.wantsWrite, let descriptor = client.descriptor else { return [] }
        return [descriptor]
    }

    /// Publishes what the turn changed: the page, the screen, the brightness, the display switch,
    /// the pushed values. Called once a turn, after every input and the tick, before the loop sleeps.
    func publishMQTT(_ engine: DeviceEngine, at now: Timestamp) {
        guard let mqtt else { return }
        mqtt.announceIfHeld(at: now)
        mqtt.observe(engine.snapshot)
        mqtt.observe(pushed: engine.pushedStates)
    }

    /// Reads and writes what the connection has (`ready` marks its descriptor readable or, while
    /// bytes wait, writable), keeps it alive, and hands the messages that came to the engine as the
    /// control socket's inputs.
    func serveMQTT(
        _ ready: Set<Int32>, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp
    ) throws(CrownPagerError) -> Bool {
        guard let mqtt else { return false }
        let readable = mqtt.client.descriptor.map { ready.contains($0) } ?? false
        guard readable || mqtt.client.nextDeadline(after: now).map({ $0 <= now }) == true else { return false }
        let served = mqtt.client.service(readable: readable, at: now)
        if let changed = served.changed {
            if mqtt.noteState(changed) { OperatorLog.info("crownpager: mqtt: \(changed)") }
            if let note = mqtt.takeoverNote() { OperatorLog.warning(note) }
            if changed == .connected { mqtt.connected() }
        }
        var drew = false
        for message in served.messages {
            let (inputs, log) = mqtt.inputs(for: message)
            for line in log { OperatorLog.warning(line) }
            for input in inputs {
                let effects = engine.handle(input, at: now)
                for reply in effects.replies where reply.refusal != nil {
                    OperatorLog.warning("crownpager: mqtt: \(message.topic): \(reply.message)")
                }
                drew = try perform(effects, &engine, &loop, at: now) || drew
            }
        }
        return drew
    }

    /// Hands a fact of the crown to the engine, which reports it for MQTT (`Effects.crownReports`).
    func feedCrown(_ fact: CrownEvent, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp)
        throws(CrownPagerError)
    {
        _ = try perform(engine.handle(.crown(fact), at: now), &engine, &loop, at: now)
    }

    /// Says `offline` and disconnects cleanly at the end of the run.
    func closeMQTT() {
        mqtt?.client.disconnect(
            saying: mqtt.map {
                MQTTMessage(
                    topic: MQTTTopic.availability.topic($0.base), payload: Array("offline".utf8), retained: true)
            })
        mqtt = nil
    }
}

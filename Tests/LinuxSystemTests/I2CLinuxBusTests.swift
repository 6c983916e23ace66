import FakeKernel
import Foundation
import Glibc
import LinuxSystem
import SSD1306
import Testing

/// A fake kernel with `/dev/i2c-1` under a fresh root; disabled again when the value goes away.
final class FakeI2CMachine {
    let root: String

    init(devices: [Int32] = [0x3C]) throws {
        root = NSTemporaryDirectory() + "crownpager-fake-kernel-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        #expect(fake_i2c_add_bus(1) == 0)
        for address in devices { #expect(fake_i2c_add_device(1, address) == 0) }
    }

    deinit {
        fake_kernel_disable()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// What `address` on bus 1 acknowledged, oldest first.
    func transfers(at address: Int32 = 0x3C) -> [[UInt8]] {
        (0..<fake_i2c_transfer_count(1, address)).map { index in
            var bytes = [UInt8](repeating: 0, count: fake_i2c_transfer_length(1, address, index))
            _ = fake_i2c_copy_transfer(1, address, index, &bytes, bytes.count)
            return bytes
        }
    }
}

@Suite(.serialized) struct I2CLinuxBusTests {
    @Test func aWholeFrameIsOneTransferByWriteOrRDWRAndTheStatusByteReads() throws {
        let machine = try FakeI2CMachine()
        fake_i2c_set_status(1, 0x3C, 0x46)
        let frame: [UInt8] = [0x40] + (0..<1024).map { UInt8($0 & 0xFF) }
        for method in [I2CWriteMethod.write, .rdwr] {
            let bus = try LinuxI2CBus.open(path: "/dev/i2c-1", writeMethod: method)
            try bus.write([0x00, 0xAE], to: .ssd1306Primary)
            try bus.write(frame, to: .ssd1306Primary)
            #expect(try bus.readByte(from: .ssd1306Primary) == 0x46)
            bus.close()
        }
        #expect(machine.transfers() == [[0x00, 0xAE], frame, [0x00, 0xAE], frame])
    }

    @Test func theNodeLooksLikeTheKernelsCharacterDevice() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        var status = stat()
        #expect(stat("/dev/i2c-1", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
        #expect(access("/dev/i2c-1", R_OK | W_OK) == 0)
        #expect(access("/dev/i2c-7", F_OK) != 0)
    }

    @Test(arguments: [ENXIO, EREMOTEIO])
    func noAnswerAtTheAddressNamesWiringAddressesAndI2cdetect(error: Int32) throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        fake_i2c_set_nack(1, 0x3C, error)
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        do throws(I2CError) {
            try bus.write([0x00, 0xAF], to: .ssd1306Primary)
            Issue.record("a NACKed write succeeded")
        } catch {
            #expect(error.kind == .noAcknowledge)
            #expect(error.path == "/dev/i2c-1" && error.address == .ssd1306Primary)
            #expect(error.description.hasPrefix("could not write to 0x3c on /dev/i2c-1: "))
            for hint in ["check the wiring", "0x3c", "0x3d", "i2cdetect -y 1"] {
                #expect(error.description.contains(hint), "\(hint)")
            }
        }
        #expect(throws: I2CError.self) { try bus.readByte(from: .ssd1306Primary) }
        #expect(machine.transfers().isEmpty)
    }

    /// i2c-virtio reports a NACK by the i2c core's count of messages executed, not an errno:
    /// I2C_RDWR returns 0 of 1, write() 0 bytes.
    @Test(arguments: [I2CWriteMethod.rdwr, .write])
    func aNACKReportedAsAShortCountIsANACKOnTheAddress(method: I2CWriteMethod) throws {
        let machine = try FakeI2CMachine()
        fake_i2c_set_short_count_nacks(1, 1)
        fake_i2c_set_nack(1, 0x3C, EREMOTEIO)
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1", writeMethod: method)
        do throws(I2CError) {
            try bus.write([0x00, 0xAF], to: .ssd1306Primary)
            Issue.record("a write the adapter did not execute succeeded")
        } catch {
            #expect(error.kind == .noAcknowledge && error.operation == .write)
            #expect(error.path == "/dev/i2c-1" && error.address == .ssd1306Primary)
            #expect(error.executedMessages == I2CError.ExecutedMessages(0, of: 1))
            #expect(
                error.description.hasPrefix(
                    "could not write to 0x3c on /dev/i2c-1: the adapter executed 0 of 1 messages (a NACK reported "
                        + "as a short count). No device answered at 0x3c: check the wiring"))
            #expect(error.description.contains("i2cdetect -y 1"))
        }
        // The kernel's SMBus emulation turns a short count into EIO.
        #expect(throws: I2CError(operation: .read, path: "/dev/i2c-1", address: .ssd1306Primary, errno: .ioError)) {
            try bus.readByte(from: .ssd1306Primary)
        }
        fake_i2c_set_nack(1, 0x3C, 0)
        try bus.write([0x00, 0xAE], to: .ssd1306Primary)
        #expect(machine.transfers() == [[0x00, 0xAE]])
    }

    /// An SMBus-only adapter (i2c-stub, some PC SMBus controllers) fails a plain I2C transfer with
    /// EOPNOTSUPP: the adapter, not the wiring, is the problem, and I2C_FUNC_I2C is what it lacks.
    @Test(arguments: [I2CWriteMethod.rdwr, .write])
    func anSMBusOnlyAdapterSaysItLacksPlainI2CTransfers(method: I2CWriteMethod) throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        fake_i2c_set_nack(1, 0x3C, EOPNOTSUPP)
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1", writeMethod: method)
        do throws(I2CError) {
            try bus.write([0x00, 0xAF], to: .ssd1306Primary)
            Issue.record("a write on an adapter without I2C transfers succeeded")
        } catch {
            #expect(error.kind == .plainTransfersUnsupported)
            #expect(error.description.hasPrefix("could not write to 0x3c on /dev/i2c-1: "))
            for hint in ["lacks plain I2C transfers (I2C_FUNC_I2C", "SMBus-only", "i2cdetect -F 1", "i2cdetect -l"] {
                #expect(error.description.contains(hint), "\(hint)")
            }
            #expect(!error.description.contains("check the wiring"))
        }
    }

    @Test func anEmptyAddressIsEREMOTEIOAsOnAPi() throws {
        let machine = try FakeI2CMachine(devices: [])
        defer { withExtendedLifetime(machine) {} }
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        #expect(
            throws: I2CError(
                operation: .write, path: "/dev/i2c-1", address: .ssd1306Secondary, errno: Errno(rawValue: EREMOTEIO))
        ) {
            try bus.write([0x00], to: .ssd1306Secondary)
        }
    }

    @Test func aMissingNodeSaysHowToEnableI2C() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        do throws(I2CError) {
            _ = try LinuxI2CBus.open(path: "/dev/i2c-3")
            Issue.record("opened a missing bus")
        } catch {
            #expect(error.kind == .busMissing && error.errno == .noSuchFileOrDirectory)
            #expect(
                error.description.hasPrefix(
                    "could not open /dev/i2c-3: No such file or directory (ENOENT, errno 2). I2C bus 3"))
            for hint in ["dtparam=i2c_arm=on", "raspi-config", "modprobe i2c-dev"] {
                #expect(error.description.contains(hint))
            }
        }
    }

    @Test func permissionDeniedNamesTheGroupAndTheUdevRule() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_kernel_deny("/dev/i2c-1") == 0)
        do throws(I2CError) {
            _ = try LinuxI2CBus.open(path: "/dev/i2c-1")
            Issue.record("opened a denied bus, even as root")
        } catch {
            #expect(error.kind == .permissionDenied && error.errno == .permissionDenied)
            for hint in [
                "Permission denied (EACCES", "i2c group", "adduser $USER i2c", "Hardware/99-crownpager-i2c.rules",
            ] {
                #expect(error.description.contains(hint), "\(hint)")
            }
        }
    }

    @Test func interruptedCallsAreRetried() throws {
        let machine = try FakeI2CMachine()
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        fake_i2c_interrupt_next(1, 2)
        try bus.write([0x00, 0xA5], to: .ssd1306Primary)
        #expect(machine.transfers() == [[0x00, 0xA5]])
        #expect(fake_i2c_refused_count(1, 0x3C) == 2)
        fake_i2c_interrupt_next(1, 1)
        fake_i2c_set_status(1, 0x3C, 0x08)
        #expect(try bus.readByte(from: .ssd1306Primary) == 0x08)
    }

    @Test func aNACKBurstFailsThoseTransfersThenTheDeviceAnswers() throws {
        let machine = try FakeI2CMachine()
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        fake_i2c_fail_next(1, 0x3C, 2, EREMOTEIO)
        #expect(throws: I2CError.self) { try bus.write([0x00, 0x01], to: .ssd1306Primary) }
        #expect(throws: I2CError.self) { try bus.write([0x00, 0x02], to: .ssd1306Primary) }
        try bus.write([0x00, 0x03], to: .ssd1306Primary)
        #expect(machine.transfers() == [[0x00, 0x03]])
    }

    @Test func errorsOnAClosedBusAreEBADFNotACrash() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        bus.close()
        bus.close()
        #expect(
            throws: I2CError(
                operation: .selectAddress, path: "/dev/i2c-1", address: .ssd1306Primary, errno: .badFileDescriptor)
        ) {
            try bus.write([0x00], to: .ssd1306Primary)
        }
    }

    @Test func aVanishedAdapterFailsFastWhileGoneAndIsReopenedWhenItReturns() throws {
        let machine = try FakeI2CMachine()
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        try bus.write([0x00, 0x01], to: .ssd1306Primary)

        // Unplugged: the old descriptor answers ENODEV, the node is gone.
        #expect(fake_i2c_remove_adapter(1) == 0)
        #expect(access("/dev/i2c-1", F_OK) != 0)
        do throws(I2CError) {
            try bus.write([0x00, 0x02], to: .ssd1306Primary)
            Issue.record("wrote to a removed adapter")
        } catch {
            #expect(error.kind == .adapterGone && error.adapterVanished)
            #expect(error.operation == .write && error.errno == .operationNotSupportedByDevice)
            #expect(
                error.description.hasPrefix(
                    "/dev/i2c-1 disappeared (could not write to 0x3c on /dev/i2c-1: "))
            #expect(
                error.description.hasSuffix(
                    "the USB or bit-banged adapter was unplugged or its driver unloaded; waiting for it to come back"))
            #expect(!error.description.contains("check the wiring") && !error.description.contains("dtparam"))
        }
        // While it is missing, each call tries the path again and fails at once, with the same cause.
        for _ in 0..<2 {
            #expect(
                throws: I2CError(
                    operation: .open, path: "/dev/i2c-1", address: nil, errno: .noSuchFileOrDirectory,
                    adapterVanished: true)
            ) {
                try bus.write([0x00, 0x03], to: .ssd1306Primary)
            }
        }
        #expect(throws: I2CError.self) { try bus.readByte(from: .ssd1306Primary) }

        // Plugged in again: the next write opens the path afresh, selects the address and goes out.
        #expect(fake_i2c_add_bus(1) == 0)
        try bus.write([0x00, 0x04], to: .ssd1306Primary)
        fake_i2c_set_status(1, 0x3C, 0x43)
        #expect(try bus.readByte(from: .ssd1306Primary) == 0x43)
        #expect(machine.transfers() == [[0x00, 0x01], [0x00, 0x04]])
    }

    @Test func aFailureWithTheNodeGoneIsTheAdapterGoneWhateverTheErrno() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        // A USB adapter's driver may fail the transfer (EIO) before the adapter is unregistered.
        fake_i2c_fail_next(1, 0x3C, 1, EIO)
        fake_i2c_set_nack(1, 0x3D, EREMOTEIO)
        #expect(
            throws: I2CError(
                operation: .write, path: "/dev/i2c-1", address: .ssd1306Secondary, errno: Errno(rawValue: EREMOTEIO))
        ) {
            try bus.write([0x00], to: .ssd1306Secondary)
        }
        let path = machine.root + "/dev/i2c-1"
        let moved = machine.root + "/dev/i2c-1.away"
        // The node vanishes under the open descriptor without unlinking its file (renamed away):
        // the transfer fails with EIO, and the node is gone.
        #expect(rename(path, moved) == 0)
        do throws(I2CError) {
            try bus.write([0x00, 0x05], to: .ssd1306Primary)
            Issue.record("the failing transfer succeeded")
        } catch {
            #expect(error.kind == .adapterGone && error.errno == .ioError)
        }
        #expect(rename(moved, path) == 0)
        try bus.write([0x00, 0x06], to: .ssd1306Primary)
        #expect(machine.transfers() == [[0x00, 0x06]])
    }

    @Test func anExplicitlyClosedBusIsNotReopened() throws {
        let machine = try FakeI2CMachine()
        defer { withExtendedLifetime(machine) {} }
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        #expect(fake_i2c_remove_adapter(1) == 0)
        #expect(throws: I2CError.self) { try bus.write([0x00], to: .ssd1306Primary) }
        bus.close()
        #expect(fake_i2c_add_bus(1) == 0)
        #expect(
            throws: I2CError(
                operation: .selectAddress, path: "/dev/i2c-1", address: .ssd1306Primary, errno: .badFileDescriptor)
        ) {
            try bus.write([0x00], to: .ssd1306Primary)
        }
    }
}

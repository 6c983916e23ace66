import Foundation
import TestSupport
import Testing

/// Hardware/crownpager-web.conf.example, the drop-in that opens the live mirror to one address:
/// the unit with it verifies and stays at 2.0 or under, and systemd reads its lines.
@Suite struct WebDropInTests {
    @Test func theUnitWithTheWebDropInVerifiesAndStaysAtTwoOrLess() throws {
        guard let analyze = ConfigInstallTests.systemdAnalyze() else { return }
        let scratch = try ScratchDirectory()
        let (path, _) = try ConfigInstallTests.unitCopy(in: scratch)
        let folder = path + ".d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dropIn = try String(
            contentsOf: ConfigInstallTests.repository.appendingPathComponent("Hardware/crownpager-web.conf.example"),
            encoding: .utf8)
        try dropIn.write(toFile: folder + "/web.conf", atomically: true, encoding: .utf8)
        // --man=no: the unit's Documentation= would otherwise need man-db, which a minimal system lacks.
        let verify = try ConfigInstallTests.run(analyze, ["verify", "--man=no", path])
        #expect(verify.status == 0, "\(verify.output)")
        let security = try ConfigInstallTests.run(
            analyze, ["security", "--offline=yes", "--no-pager", "--threshold=20", path])
        let overall = security.output.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let score = overall?.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(security.status == 0, "\(security.output)")
        #expect(score != nil && (score ?? 10) <= 2.0, "\(overall ?? "no overall exposure line")")
        // The drop-in was read: the allow list it sets is what systemd rates.
        #expect(security.output.contains("allow list with non-localhost entries"), "\(security.output)")
        for line in ["IPAddressDeny=any", "SocketBindAllow=tcp:8080", "SocketBindDeny=any"] {
            #expect(dropIn.contains("\n" + line + "\n"), "\(line)")
        }
    }
}

import CrownPagerApp
import Testing

/// Where `run` listens and the commands connect by default.
@Suite struct ControlSocketPathTests {
    @Test func theServiceUserListensInTheFolderSystemdMadeForIt() {
        // The packaged unit runs as user crownpager, not root: the folder it may write decides.
        let service = ControlSocketPath.forRun(mock: false, mayWrite: { $0 == "/run/crownpager" })
        #expect(service == "/run/crownpager/control.sock")
        // A member of group crownpager may only connect there; the mock never listens there.
        #expect(ControlSocketPath.forRun(mock: false, mayWrite: { _ in false }) != "/run/crownpager/control.sock")
        #expect(ControlSocketPath.forRun(mock: true, mayWrite: { _ in true }) != "/run/crownpager/control.sock")
    }
}

import CrownPagerApp
import Foundation
import PagerEngine
import TestSupport
import Testing

/// Where `run` keeps the notifications across a restart, and the file written and read there.
@Suite struct NotificationStoreTests {
    static func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test func theServiceStateFolderComesFirstThenTheUsersForTheEmulator() {
        let service = Self.environment(["STATE_DIRECTORY": "/var/lib/crownpager:/var/lib/other", "HOME": "/root"])
        #expect(
            NotificationStore.forRun(mock: false, environment: service)?.path == "/var/lib/crownpager/notifications")
        let xdg = Self.environment(["XDG_STATE_HOME": "/home/pi/.state", "HOME": "/home/pi"])
        #expect(
            NotificationStore.forRun(mock: true, environment: xdg)?.path == "/home/pi/.state/crownpager/notifications")
        let home = Self.environment(["XDG_STATE_HOME": "relative", "HOME": "/home/pi"])
        #expect(
            NotificationStore.forRun(mock: true, environment: home)?.path
                == "/home/pi/.local/state/crownpager/notifications")
        // A panel run outside the service keeps none: nowhere it may write is known.
        #expect(NotificationStore.forRun(mock: false, environment: xdg) == nil)
        #expect(NotificationStore.forRun(mock: true, environment: Self.environment([:])) == nil)
    }

    @Test func whatIsSavedIsLoadedBackAndReplacedWhole() throws {
        let scratch = try ScratchDirectory()
        // The folder is made on first save.
        let store = NotificationStore(path: scratch.path + "/state/crownpager/notifications")
        #expect(store.load() == [])
        let kept = [
            PagerNotification(message: "Door open", title: "Hall", priority: .critical),
            PagerNotification(message: "Oven on\nsince 18:00", priority: .active, timeout: .seconds(30)),
        ]
        store.save(kept)
        #expect(store.load() == kept)
        store.save([])
        #expect(store.load() == [])
        // Private to the service's user, no temporary file left beside it.
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/state/crownpager") == ["notifications"]
        )
    }

    @Test func aDamagedFileGivesWhatStillReads() throws {
        let scratch = try ScratchDirectory()
        let store = NotificationStore(path: scratch.path + "/notifications")
        try Data("critical\t\t\tkept\n\u{0}garbage\nactive\t1\t".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load() == [PagerNotification(message: "kept", priority: .critical)])
        // A folder where the file should be: nothing read, no crash.
        let folder = NotificationStore(path: scratch.path)
        #expect(folder.load() == [])
    }
}

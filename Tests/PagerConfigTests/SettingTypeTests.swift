import PagerConfig
import Testing

/// `SettingType`: one case says what a key takes, for reading and for the words in references.
@Suite struct SettingTypeTests {
    static func table(_ text: String) throws -> ConfigTable {
        ConfigTable(try TOMLParser.parse(text), path: "t", file: "t.toml")
    }

    @Test func theAllowedValuesInWords() {
        #expect(SettingType.integer(0...100).allowed == "0 to 100")
        #expect(SettingType.integerChoice([0, 180], described: "0 or 180").allowed == "0 or 180")
        #expect(SettingType.number(-1e12...1e12).allowed == "a number from -1e12 to 1e12")
        #expect(SettingType.choice(["bar", "dial"]).allowed == "\"bar\" or \"dial\"")
        #expect(
            SettingType.duration(minimumMilliseconds: 1000, allowsNever: true).allowed
                == "a duration of at least 1s, or \"never\"")
        #expect(
            SettingType.duration(minimumMilliseconds: 100, allowsNever: false).allowed == "a duration of at least 100ms"
        )
        #expect(SettingType.strings(minimumCount: 1).allowed == "an array of at least 1 string")
    }

    @Test func anIntegerChoiceTakesOnlyItsChoices() throws {
        var table = try Self.table("r = 180\ns = 90\nt = \"x\"")
        #expect(try table.integer("r", .integerChoice([0, 180], described: "0 or 180")) == 180)
        do {
            _ = try table.integer("s", .integerChoice([0, 180], described: "0 or 180"))
            Issue.record("90 was taken")
        } catch {
            #expect(error.key == "t.s" && error.line == 2 && error.message == "expected 0 or 180, found 90")
        }
        do {
            _ = try table.integer("t", .integerChoice([0, 180], described: "0 or 180"))
            Issue.record("a string was taken")
        } catch {
            #expect(error.key == "t.t" && error.line == 3)
        }
    }

    @Test func aDurationTakesNeverOnlyWhereAllowed() throws {
        var table = try Self.table("a = \"never\"\nb = \"2min\"\nc = \"never\"")
        let never = SettingType.duration(minimumMilliseconds: 1000, allowsNever: true)
        #expect(try table.duration("a", never) == .some(nil))
        #expect(try table.duration("b", never) == .some(120_000))
        #expect(try table.duration("z", never) == nil)
        do {
            _ = try table.duration("c", .duration(minimumMilliseconds: 0, allowsNever: false))
            Issue.record("never was taken")
        } catch {
            #expect(error.key == "t.c" && error.line == 3)
        }
        try table.finish()
    }

    @Test func aChoiceIsCheckedAndAStringIsNot() throws {
        var table = try Self.table("a = \"dail\"\nb = \"anything\"")
        do {
            _ = try table.string("a", .choice(["bar", "dial"]))
            Issue.record("dail was taken")
        } catch {
            #expect(error.key == "t.a" && error.message.contains("did you mean \"dial\"?"))
        }
        #expect(try table.string("b", .string) == "anything")
    }
}

import PagerEngine
import Testing

/// `MQTTPayload.keys`: the keys of the object at a path, as the device config is read back.
@Suite struct MQTTPayloadKeysTests {
    @Test func theKeysOfTheObjectAtThePathInOrder() {
        let text = #"{"a":{"z":1,"y":{"x":[1,{"w":2}]},"v\u00e9":"s"},"b":{}}"#
        #expect(MQTTPayload.keys(of: Array(text.utf8), at: "a") == ["z", "y", "v\u{E9}"])
        #expect(MQTTPayload.keys(of: Array(text.utf8), at: "b") == [])
        #expect(MQTTPayload.keys(of: Array(text.utf8), at: "a.y") == ["x"])
        #expect(MQTTPayload.keys(of: Array(text.utf8), at: "a.z") == nil, "a number, not an object")
        #expect(MQTTPayload.keys(of: Array(text.utf8), at: "c") == nil, "no such field")
        #expect(MQTTPayload.keys(of: Array(#"{"a":{"z":1}"#.utf8), at: "a") == nil, "not JSON to its end")
    }
}

import CrownVocabulary
import PagerControl
import TestSupport
import Testing

@Suite struct ControlProtocolTests {
    static func parse(_ line: String) -> Result<ControlRequest, ControlRequestError> {
        Result { () throws(ControlRequestError) in try ControlRequest(parsing: Array(line.utf8)) }
    }

    @Test func theCommandsParse() {
        #expect(
            Self.parse("notify title=Door priority=critical timeout=5000 message=Someone\\sat\\sthe\\sdoor")
                == .success(
                    .notify(
                        ControlNotification(
                            message: "Someone at the door", title: "Door", priority: .critical,
                            timeoutMilliseconds: 5000))))
        #expect(Self.parse("show page=2") == .success(.control(.show(page: .named("2")))))
        #expect(
            Self.parse("set page=Washer value=12\\smin\\nleft\r")
                == .success(.control(.set(page: .named("Washer"), value: "12 min\nleft"))))
        #expect(Self.parse("status") == .success(.status))
        #expect(Self.parse("brightness percent=40") == .success(.control(.brightness(percent: 40))))
        #expect(Self.parse("display state=off") == .success(.control(.display(on: false))))
        #expect(Self.parse("press page=Restart\\sfoo") == .success(.control(.press(page: .named("Restart foo")))))
    }

    @Test func malformedRequestsNameWhatIsWrong() {
        let commands = "notify, show, set, status, brightness, display, press"
        #expect(Self.parse("") == .failure(.malformed("an empty line: use \(commands)")))
        #expect(Self.parse("reboot") == .failure(.unknownCommand("reboot")))
        #expect(Self.parse("show") == .failure(.malformed("show needs page=...")))
        #expect(Self.parse("show page=1 page=2") == .failure(.malformed("page is given twice")))
        #expect(Self.parse("show page=1 colour=red") == .failure(.malformed("show takes no colour")))
        #expect(Self.parse("show 1") == .failure(.malformed("\"1\" is not key=value")))
        #expect(
            Self.parse("set page=a value=x\\q")
                == .failure(.malformed("the value of value has an unknown escape: use \\s \\n \\t \\r \\\\")))
        #expect(
            Self.parse("notify message=hi priority=urgent")
                == .failure(.malformed("priority \"urgent\": use passive, active or critical")))
        #expect(
            Self.parse("notify message=hi timeout=-1")
                == .failure(.malformed("timeout \"-1\": milliseconds from 1 to 86400000")))
        #expect(
            Self.parse("brightness percent=101")
                == .failure(.malformed("percent \"101\": a whole number from 0 to 100")))
        #expect(Self.parse("display state=dim") == .failure(.malformed("state \"dim\": use on or off")))
        #expect(
            Self.parse("status\tnow")
                == .failure(.malformed("a control character in the line: escape it (\\n, \\t, \\r)")))
        let junk: [UInt8] = [0x73, 0x68, 0x6F, 0x77, 0x20, 0x70, 0x3D, 0xFF, 0xFE]
        #expect(Result { () throws(ControlRequestError) in try ControlRequest(parsing: junk) } == .failure(.notUTF8))
        let long = "set page=a value=" + String(repeating: "x", count: ControlProtocol.maximumLineBytes)
        #expect(Self.parse(long) == .failure(.tooLong))
    }

    @Test func theBufferYieldsWholeLinesAndStopsAtTheLimit() {
        var buffer = ControlLineBuffer()
        #expect(buffer.append(Array("sta".utf8)).isEmpty)
        #expect(buffer.holdsPartialLine)
        #expect(
            buffer.append(Array("tus\nshow page=1\nset".utf8)) == [
                .request(.success(.status)), .request(.success(.control(.show(page: .named("1"))))),
            ])
        #expect(buffer.holdsPartialLine)
        let flood = [UInt8](repeating: 0x41, count: 1 << 20)
        #expect(buffer.append(flood) == [.overflow])
        #expect(buffer.overflowed)
        // Nothing after the overflow is read, a newline included.
        #expect(buffer.append(Array("\nstatus\n".utf8)).isEmpty)
        // A line of exactly the limit, its newline included, is still a line.
        var exact = ControlLineBuffer()
        let line = "set page=a value=" + String(repeating: "x", count: ControlProtocol.maximumLineBytes - 18) + "\n"
        #expect(line.utf8.count == ControlProtocol.maximumLineBytes)
        #expect(exact.append(Array(line.utf8)).count == 1)
        #expect(!exact.overflowed)
    }

    /// Every request formatted and parsed again is itself, whatever its text holds.
    @Test func formattingAndParsingRoundTrip() {
        var generator = SeededGenerator(seed: 24)
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "=", "\\", "\n", "\t", "\r", "s", "n", "\u{7F}", "\u{1}", "é", "温", "😀", ",", "\"",
        ]
        for _ in 0..<2000 {
            func text(_ allowsEmpty: Bool = false) -> String {
                var string = ""
                for _ in 0..<(Int(generator.next() % 12) + (allowsEmpty ? 0 : 1)) {
                    string.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
                }
                return string
            }
            let request: ControlRequest
            switch generator.next() % 8 {
            case 0:
                request = .notify(
                    ControlNotification(
                        message: text(), title: generator.next() % 2 == 0 ? nil : text(true),
                        priority: NotificationPriority.allCases[Int(generator.next() % 3)],
                        timeoutMilliseconds: generator.next() % 2 == 0 ? nil : Int64(generator.next() % 86_400_000) + 1)
                )
            case 1: request = .control(.show(page: .named(text())))
            case 2: request = .control(.set(page: .named(text()), value: text()))
            case 3: request = .control(.brightness(percent: Int(generator.next() % 101)))
            case 4: request = .control(.display(on: generator.next() % 2 == 0))
            case 5: request = .control(.press(page: .named(text())))
            case 6: request = .control(.press(page: .index(Int(generator.next() % 1000))))
            default: request = .status
            }
            let line = request.line
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
            // Control characters other than \n, \t and \r travel as spaces.
            let expected = Self.controlsAsSpaces(request)
            #expect(Self.parse(String(line.dropLast())) == .success(expected), "\(line)")
        }
    }

    static func controlsAsSpaces(_ request: ControlRequest) -> ControlRequest {
        func clean(_ text: String) -> String {
            String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map {
                        ($0.value < 0x20 || $0.value == 0x7F) && !["\n", "\t", "\r"].contains($0) ? " " : $0
                    }))
        }
        // An index travels as its number from 1, which the engine reads back as the same page.
        func clean(_ page: RequestedPage) -> RequestedPage {
            switch page {
            case .named(let word): return .named(clean(word))
            case .index(let index): return .named(String(index + 1))
            }
        }
        switch request {
        case .notify(var notification):
            notification.message = clean(notification.message)
            notification.title = notification.title.map(clean)
            // An empty title travels and comes back as an absent one would not: it stays empty.
            return .notify(notification)
        case .control(.show(let page)): return .control(.show(page: clean(page)))
        case .control(.set(let page, let value)): return .control(.set(page: clean(page), value: clean(value)))
        case .control(.press(let page)): return .control(.press(page: clean(page)))
        case .status, .control(.brightness), .control(.display): return request
        }
    }

    @Test func responsesRoundTripAndStatusReadsBack() {
        let status = ControlStatus(
            page: 2, pageCount: 3, title: "Clock", screen: "dimmed", displayLost: false, notification: "Door, open",
            queuedNotifications: 1, titles: ["Hello, world", "Clock", "Tab\there \\ too"], stalePages: [3])
        let line = ControlResponse.ok(status.fields).line
        #expect(line.hasSuffix("\n"))
        let response = ControlResponse(parsing: line.dropLast())
        #expect(response.flatMap(ControlStatus.init) == status)
        #expect(
            status.json
                == "{\"page\": 2, \"pages\": 3, \"title\": \"Clock\", \"screen\": \"dimmed\", \"displayLost\": false, "
                + "\"notification\": \"Door, open\", \"queuedNotifications\": 1, \"titles\": [\"Hello, world\", \"Clock\", \"Tab\\there \\\\ too\"], "
                + "\"stalePages\": [3]}\n")
        // With MQTT on, its state is one more field, line and member.
        var withMQTT = status
        withMQTT.mqtt = "disconnected (the connection closed); retrying in 2 s"
        let read = ControlResponse(parsing: ControlResponse.ok(withMQTT.fields).line.dropLast())
        #expect(read.flatMap(ControlStatus.init) == withMQTT)
        #expect(
            withMQTT.text.hasSuffix("stale: pages 3\nmqtt: disconnected (the connection closed); retrying in 2 s\n"))
        #expect(withMQTT.json.hasSuffix(", \"mqtt\": \"disconnected (the connection closed); retrying in 2 s\"}\n"))
        let refused = ControlResponse.error(.unknownPage, "no page \"Kitchen\": the pages are 1 to 3")
        #expect(ControlResponse(parsing: refused.line.dropLast()) == refused)
        #expect(ControlResponse(parsing: "maybe") == nil)
        #expect(ControlStatus.jsonString("a\u{1}\"") == "\"a\\u0001\\\"\"")
    }
}

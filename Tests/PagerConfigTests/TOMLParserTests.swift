import PagerConfig
import Testing

private func parse(_ text: String) throws -> TOMLTable { try TOMLParser.parse(text) }

private func parseError(_ text: String) -> TOMLError? {
    do {
        _ = try TOMLParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct TOMLParserTests {
    @Test func tablesKeysAndLines() throws {
        let root = try parse(
            """
            # a comment
            title = "CrownPager"   # trailing comment

            [display]
            panel = "128x64"
            address = 0x3c
            """)
        #expect(root["title"]?.value == .string("CrownPager"))
        #expect(root["title"]?.line == 2)
        guard case .table(let display)? = root["display"]?.value else {
            Issue.record("no [display]")
            return
        }
        #expect(root["display"]?.line == 4)
        #expect(display["panel"]?.line == 5)
        #expect(display["address"]?.value == .integer(0x3c))
        #expect(display.keys == ["panel", "address"])
    }

    @Test func arraysOfTablesKeepOrderAndLines() throws {
        let root = try parse(
            """
            [[page]]
            kind = "clock"
            [[page]]
            kind = "text"
            text = "hi"
            """)
        guard case .array(let pages)? = root["page"]?.value, pages.count == 2,
            case .table(let second) = pages[1]
        else {
            Issue.record("expected two pages")
            return
        }
        #expect(second.line == 3)
        #expect(second["text"]?.line == 5)
    }

    @Test func dottedKeysAndInlineTables() throws {
        let root = try parse(
            """
            a.b.c = 1
            a.b.d = 'x'
            point = { x = 1, y = -2, nested.z = true }
            [fruit.apple.texture]
            smooth = true
            """)
        guard case .table(let a)? = root["a"]?.value, case .table(let b)? = a["b"]?.value else {
            Issue.record("no a.b")
            return
        }
        #expect(b["c"]?.value == .integer(1))
        #expect(b["d"]?.value == .string("x"))
        guard case .table(let point)? = root["point"]?.value, case .table(let nested)? = point["nested"]?.value else {
            Issue.record("no point.nested")
            return
        }
        #expect(point["y"]?.value == .integer(-2))
        #expect(nested["z"]?.value == .boolean(true))
    }

    @Test func strings() throws {
        let root = try parse(
            #"""
            basic = "tab\there \"q\" \\ \u00e9 \U0001F642"
            literal = 'C:\path\no escapes'
            multi = """
            one
            two \
                three"""
            lit = '''
            raw \n '' ok'''
            quotes = """"two quotes"""""
            "quoted key" = 1
            """#)
        #expect(root["basic"]?.value == .string("tab\there \"q\" \\ é 🙂"))
        #expect(root["literal"]?.value == .string(#"C:\path\no escapes"#))
        #expect(root["multi"]?.value == .string("one\ntwo three"))
        #expect(root["lit"]?.value == .string("raw \\n '' ok"))
        #expect(root["quotes"]?.value == .string("\"two quotes\"\""))
        #expect(root["quoted key"]?.value == .integer(1))
    }

    @Test func numbers() throws {
        let root = try parse(
            """
            a = 1_000
            b = -17
            c = 0xDEAD_beef
            d = 0o755
            e = 0b1010
            f = 3.25
            g = -1e3
            h = 6.5E-1
            i = inf
            j = -inf
            k = nan
            l = +42
            m = 9223372036854775807
            n = -9223372036854775808
            """)
        #expect(root["a"]?.value == .integer(1000))
        #expect(root["b"]?.value == .integer(-17))
        #expect(root["c"]?.value == .integer(0xDEAD_BEEF))
        #expect(root["d"]?.value == .integer(0o755))
        #expect(root["e"]?.value == .integer(10))
        #expect(root["f"]?.value == .float(3.25))
        #expect(root["g"]?.value == .float(-1000))
        #expect(root["h"]?.value == .float(0.65))
        #expect(root["i"]?.value == .float(.infinity))
        #expect(root["j"]?.value == .float(-.infinity))
        guard case .float(let k)? = root["k"]?.value else {
            Issue.record("nan")
            return
        }
        #expect(k.isNaN)
        #expect(root["l"]?.value == .integer(42))
        #expect(root["m"]?.value == .integer(.max))
        #expect(root["n"]?.value == .integer(.min))
    }

    @Test func arraysSpanLinesWithCommentsAndTrailingCommas() throws {
        let root = try parse(
            """
            argv = [
              "vcgencmd",  # the tool
              "measure_temp",
            ]
            mixed = [1, "two", [3.0], { four = 4 }]
            """)
        #expect(root["argv"]?.value == .array([.string("vcgencmd"), .string("measure_temp")]))
        guard case .array(let mixed)? = root["mixed"]?.value else {
            Issue.record("mixed")
            return
        }
        #expect(mixed.count == 4)
    }

    @Test func crlfLineEndings() throws {
        let root = try parse("a = 1\r\nb = \"x\"\r\n")
        #expect(root["b"]?.line == 2)
    }

    @Test(arguments: [
        ("a = 1979-05-27", 1, "dates and times are not supported"),
        ("t = 07:32:00", 1, "dates and times are not supported"),
        ("a = 1\na = 2", 2, "defined twice: first on line 1"),
        ("[x]\n[x]", 2, "[x] is defined twice"),
        ("a = \"open", 1, "unterminated string"),
        ("a = \"\"\"\nnever closed", 1, "unterminated multi-line string opened on line 1"),
        ("a = [1, 2", 1, "unterminated array"),
        ("a = { x = 1,\n y = 2 }", 1, "must stay on one line"),
        ("a = { x = 1, }", 1, "no comma before '}'"),
        ("a = 012", 1, "leading zeros"),
        ("a = 1__0", 1, "underscore"),
        ("a = 99999999999999999999", 1, "does not fit in a 64-bit integer"),
        ("a = -0x10", 1, "takes no sign"),
        ("a = hello", 1, "put text in quotes"),
        ("a = \"\\q\"", 1, "unknown escape"),
        ("a = \"\\u12\"", 1, "4 hexadecimal digits"),
        ("a = \"\\uD800\"", 1, "not a Unicode scalar"),
        ("a 1", 1, "expected '='"),
        ("a = 1 b = 2", 1, "expected the end of the line"),
        ("[a\nb = 1", 1, "expected ']'"),
        ("a = 1\n[a]", 2, "is already a value"),
        ("[a]\nb.c = 1\n[a.b]", 3, "defined twice"),
        ("x = { y = 1 }\n[x.z]", 2, "inline table"),
        ("[[p]]\n[p]", 2, "defined twice"),
        ("[p]\n[[p]]", 2, "already a table"),
        ("a = 1.", 1, "digits on both sides"),
        ("a = 1e", 1, "exponent"),
        ("= 1", 1, "expected a key"),
        ("a = ", 1, "expected a value"),
        ("a = \"tab\u{01}\"", 1, "control character"),
    ])
    func errorsNameLineAndCause(text: String, line: Int, fragment: String) {
        guard let error = parseError(text) else {
            Issue.record("expected an error for \(text.debugDescription)")
            return
        }
        #expect(error.line == line, "\(error)")
        #expect(error.description.contains(fragment), "\(error)")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = "a = " + String(repeating: "[", count: 10_000)
        #expect(parseError(deep)?.message.contains("nested more than") == true)
        let key = Array(repeating: "k", count: 200).joined(separator: ".") + " = 1"
        #expect(parseError(key)?.message.contains("more than") == true)
    }
}

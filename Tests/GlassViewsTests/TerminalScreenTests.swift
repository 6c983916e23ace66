import GlassViews
import TestSupport
import Testing

@Suite("Terminal screen")
struct TerminalScreenTests {
    let esc = "\u{1B}"

    @Test("the first update draws every line at its row")
    func firstUpdate() {
        var screen = TerminalScreen()
        #expect(screen.update(to: ["ab", "cd"]) == "\(esc)[1;1Hab\(esc)[K\(esc)[2;1Hcd\(esc)[K")
        #expect(screen.lines == ["ab", "cd"])
    }

    @Test("unchanged lines are not written again")
    func onlyChangedLines() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["ab", "cd", "ef"])
        #expect(screen.update(to: ["ab", "cd", "ef"]) == "")
        #expect(screen.update(to: ["ab", "xy", "ef"]) == "\(esc)[2;1Hxy\(esc)[K")
        #expect(screen.update(to: ["AB", "xy", "EF"]) == "\(esc)[1;1HAB\(esc)[K\(esc)[3;1HEF\(esc)[K")
    }

    @Test("rows left behind by a shorter picture are cleared; new rows are drawn")
    func changingHeight() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["ab", "cd", "ef"])
        #expect(screen.update(to: ["ab"]) == "\(esc)[2;1H\(esc)[K\(esc)[3;1H\(esc)[K")
        #expect(screen.update(to: ["ab", "gh"]) == "\(esc)[2;1Hgh\(esc)[K")
    }

    @Test("an origin moves every line")
    func origin() {
        var screen = TerminalScreen(top: 5, left: 3)
        #expect(screen.update(to: ["a"]) == "\(esc)[5;3Ha\(esc)[K")
    }

    @Test("repaint clears the screen and redraws everything; invalidate forces a full update")
    func repaintAndInvalidate() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["ab", "cd"])
        #expect(screen.repaint(["ab", "cd"]) == "\(esc)[2J\(esc)[H\(esc)[1;1Hab\(esc)[K\(esc)[2;1Hcd\(esc)[K")
        screen.invalidate()
        #expect(screen.update(to: ["ab"]) == "\(esc)[1;1Hab\(esc)[K")
    }

    @Test("synchronized output wraps updates that change something")
    func synchronized() {
        var screen = TerminalScreen(synchronizedOutput: true)
        #expect(screen.update(to: ["a"]) == "\(esc)[?2026h\(esc)[1;1Ha\(esc)[K\(esc)[?2026l")
        #expect(screen.update(to: ["a"]) == "")
        #expect(screen.repaint([]) == "\(esc)[?2026h\(esc)[2J\(esc)[H\(esc)[?2026l")
    }

    @Test("enter and leave sequences")
    func enterLeave() {
        #expect(TerminalScreen.enterSequence() == "\(esc)[?1049h\(esc)[?25l\(esc)[?1000h\(esc)[?1006h\(esc)[2J\(esc)[H")
        #expect(TerminalScreen.enterSequence(mouse: false) == "\(esc)[?1049h\(esc)[?25l\(esc)[2J\(esc)[H")
        #expect(TerminalScreen.leaveSequence == "\(esc)[0m\(esc)[?1006l\(esc)[?1000l\(esc)[?25h\(esc)[?1049l")
    }

    @Test("property: replaying the updates on a virtual terminal shows the latest lines, writing only changed rows")
    func replayProperty() {
        var random = SeededGenerator(seed: 2026)
        let alphabet: [Character] = [" ", "▀", "▄", "█", "⣿", "a"]
        for _ in 0..<200 {
            var screen = TerminalScreen(top: Int.random(in: 1...3, using: &random))
            var terminal = VirtualTerminal()
            var previous: [String] = []
            for _ in 0..<8 {
                let count = Int.random(in: 0...6, using: &random)
                let lines = (0..<count).map { _ -> String in
                    if let old = previous.randomElement(using: &random), Bool.random(using: &random) { return old }
                    return String(
                        (0..<Int.random(in: 0...5, using: &random)).map { _ in
                            alphabet.randomElement(using: &random) ?? " "
                        })
                }
                let output = screen.update(to: lines)
                terminal.apply(output)
                let changed = (0..<max(lines.count, previous.count)).filter { index in
                    index >= lines.count || index >= previous.count || lines[index] != previous[index]
                }
                #expect(terminal.cursorMoves == changed.count)
                #expect(terminal.visibleLines(from: screen.top, count: lines.count) == lines)
                #expect(
                    terminal.visibleLines(from: screen.top + lines.count, count: 6) == Array(repeating: "", count: 6))
                previous = lines
            }
        }
    }
}

/// Just enough of a terminal to check TerminalScreen: CUP, EL 0, ED 2 and text.
struct VirtualTerminal {
    var rows: [Int: [Character]] = [:]
    var row = 1
    var column = 1
    var cursorMoves = 0

    mutating func apply(_ output: String) {
        cursorMoves = 0
        var characters = Array(output)[...]
        while let character = characters.popFirst() {
            guard character == "\u{1B}" else {
                var line = rows[row] ?? []
                while line.count < column - 1 { line.append(" ") }
                if line.count >= column { line[column - 1] = character } else { line.append(character) }
                rows[row] = line
                column += 1
                continue
            }
            guard characters.popFirst() == "[" else { continue }
            var parameters = ""
            while let next = characters.popFirst() {
                if next.isLetter {
                    execute(parameters, final: next)
                    break
                }
                parameters.append(next)
            }
        }
    }

    mutating func execute(_ parameters: String, final: Character) {
        switch final {
        case "H":
            let fields = parameters.split(separator: ";").compactMap { Int($0) }
            row = fields.first ?? 1
            column = fields.count > 1 ? fields[1] : 1
            if !parameters.isEmpty { cursorMoves += 1 }
        case "K":
            rows[row] = Array((rows[row] ?? []).prefix(column - 1))
        case "J":
            rows.removeAll()
        default:
            break
        }
    }

    func visibleLines(from top: Int, count: Int) -> [String] {
        (top..<(top + count)).map { String(rows[$0] ?? []) }
    }
}

import PagerGraphics

/// How long reading a PNG takes: a frame as `render` writes it, at several scales.
func runImageBenchmarks() {
    print("PNG decoding (stored deflate blocks, as `crownpager render` writes them):")
    var frame = Bitmap(width: 128, height: 64)
    frame.fillCircle(center: Point(x: 64, y: 32), radius: 28)
    let clock = ContinuousClock()
    for scale in [1, 4, 8] {
        let png = PNG.encode(frame, scale: scale, lit: .oledBlue)
        let runs = 20
        var lit = 0
        var failure: PNGDecodingError?
        let elapsed = clock.measure {
            for _ in 0..<runs {
                do throws(PNGDecodingError) { lit += try PNG.decode(png).litPixelCount } catch { failure = error }
            }
        }
        if let failure {
            print("  \(128 * scale)x\(64 * scale): \(failure)")
            continue
        }
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        print(
            "  \(128 * scale)x\(64 * scale), \(png.count) bytes: \(fixed2(milliseconds / Double(runs))) ms a decode (\(lit / runs) lit pixels)"
        )
    }
}

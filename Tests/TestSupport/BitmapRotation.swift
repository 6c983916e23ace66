import PagerGraphics

extension Bitmap {
    /// The picture turned by 180 degrees: what a panel mounted upside down shows.
    public func rotated180() -> Bitmap {
        var turned = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where self[x, y] { turned[width - 1 - x, height - 1 - y] = true }
        }
        return turned
    }
}

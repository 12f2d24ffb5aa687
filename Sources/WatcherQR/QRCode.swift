import CQRencode

/// A QR code's modules, from libqrencode (`QRcode_encodeString8bit`, error correction level M): `width` × `width`
/// booleans, `true` for a dark module, without the quiet zone (``png(scale:)`` and ``svg(scale:)`` add it).
public struct QRCode: Sendable, Hashable {
    /// The modules per side.
    public let width: Int
    /// Row-major, `true` = dark.
    public let modules: [Bool]

    /// The modules that encode `text`: its UTF-8 bytes in 8-bit mode, or, `segmented`, split by libqrencode into
    /// segments of the densest mode each part allows (digits, upper-case alphanumerics, bytes), which makes an
    /// upper-case text a smaller code.
    /// - Throws: ``Failure`` when libqrencode refuses it (too long for a QR code).
    public init(_ text: String, segmented: Bool = false) throws(Failure) {
        let made =
            segmented
            ? QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) : QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M)
        guard let code = made else { throw Failure(length: text.utf8.count) }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Text libqrencode could not encode.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Its length in bytes.
        public var length: Int
        public var description: String { "\(length) bytes do not fit in a QR code" }
    }

    /// Whether the module at `x`, `y` is dark (outside the code: light, the quiet zone).
    public func isDark(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < width && modules[y * width + x]
    }

    /// The quiet zone, in modules, on each side (ISO/IEC 18004: 4).
    public static let quietZone = 4

    /// An SVG image: one path of dark squares, `scale` pixels a module, with the quiet zone.
    public func svg(scale: Int = 6) -> String {
        let side = (width + 2 * Self.quietZone) * scale
        var path = ""
        for y in 0..<width {
            for x in 0..<width where isDark(x, y) {
                path += "M\((x + Self.quietZone) * scale) \((y + Self.quietZone) * scale)h\(scale)v\(scale)h-\(scale)z"
            }
        }
        return
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(side)" height="\#(side)" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges">"#
            + ##"<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }

    /// A grayscale PNG: `scale` pixels a module, with the quiet zone.
    public func png(scale: Int = 6) -> [UInt8] {
        let side = (width + 2 * Self.quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<width {
            for x in 0..<width where isDark(x, y) {
                for dy in 0..<scale {
                    let row = ((y + Self.quietZone) * scale + dy) * side + (x + Self.quietZone) * scale
                    for dx in 0..<scale { pixels[row + dx] = 0 }
                }
            }
        }
        return PNGImage.grayscale(width: side, height: side, pixels: pixels)
    }
}

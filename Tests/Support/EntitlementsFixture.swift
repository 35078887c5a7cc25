package import IPACheckPlist

/// Entitlements and Info.plist fixtures written by hand, independent of the product's plist and DER writers.
package enum EntitlementsFixture {
    /// The XML plist, written by hand (independent of the product's plist writer).
    package static func xml(_ entries: [(key: String, value: PlistValue)]) -> [UInt8] {
        func render(_ value: PlistValue) -> String {
            switch value {
            case .string(let text): return "<string>\(text)</string>"
            case .bool(let flag): return flag ? "<true/>" : "<false/>"
            case .array(let elements): return "<array>" + elements.map(render).joined() + "</array>"
            case .dictionary(let entries):
                return "<dict>"
                    + entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key>" + render($0.value) }
                    .joined() + "</dict>"
            default: return "<string/>"
            }
        }
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>

            """
        for entry in entries { text += "<key>\(entry.key)</key>\(render(entry.value))\n" }
        return Array((text + "</dict></plist>\n").utf8)
    }

    /// A value in Apple's DER entitlements encoding.
    package static func der(_ value: PlistValue) -> [UInt8] {
        switch value {
        case .string(let text): return SuperBlobBuilder.derString(text)
        case .bool(let flag): return SuperBlobBuilder.derBool(flag)
        case .array(let elements): return SuperBlobBuilder.derArray(elements.map(der))
        default: return SuperBlobBuilder.derString("")
        }
    }

    /// A signing whose XML and DER entitlements blobs both hold `entitlements`, bound to `info`.
    package static func signing(
        _ entitlements: [(key: String, value: PlistValue)],
        info: [UInt8]
    ) -> MachOBuilder.Signing {
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = xml(entitlements)
        signing.derEntitlements = SuperBlobBuilder.derEntitlementsApplication(
            entitlements.map { ($0.key, der($0.value)) }
        )
        signing.infoPlist = info
        return signing
    }
}

// SPDX-License-Identifier: Apache-2.0
import CXML2

/// One thing libxml2's HTML parser read in a fragment, in document order: text (references decoded,
/// control characters as spaces), an element's start (names lowercased, the first of a repeated
/// attribute kept, an attribute without a value as "") or its end (also where the parser closed it).
package enum HTMLEvent: Equatable {
    case text(String)
    case start(String, attributes: [String: String])
    case end(String)
}

/// Untrusted HTML (Flickr descriptions) read by libxml2's HTML parser, which recovers from any input as
/// a browser does, through its SAX callbacks: no tree is built, so no depth of nesting costs a stack.
/// Tags that break a line are listed here; what to keep of the rest is each caller's allow-list.
package enum HTMLFragment {
    /// Bytes of a fragment read; the rest is left out (a whole Flickr answer holds at most 16 MiB).
    package static let maximumBytes = 2 << 20
    /// Elements open at once: reading stops at the first element deeper, keeping what came before (as
    /// libxml2 stops its trees at 256). Each end tag searches the open elements: depth bounds that work.
    package static let maximumDepth = 256

    /// Tags that break a line or start a block.
    package static let blockTags: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "blockquote", "pre",
        "h1", "h2", "h3", "h4", "h5", "h6", "script", "style", "img",
    ]

    /// The element the fragment is parsed inside: with an element open, text never gets the `<p>` that
    /// libxml2 implies around text at the top of a document. A fragment that closes it gets those `<p>`s.
    package static let container = "photomap-fragment"

    /// libxml2's tables made once, before any thread parses (xmlInitParser is guarded by its own lock).
    private static let initialized: Void = xmlInitParser()

    /// What `html` holds, read as HTML: its first `maximumBytes` (cut between characters), down to
    /// `maximumDepth` elements. Raw control characters (but tab, line feed and carriage return) become
    /// spaces before parsing, as libxml2 would drop them and take a NUL for the end of its input.
    package static func events(_ html: String) -> [HTMLEvent] {
        _ = initialized
        var bytes = Array("<\(container)>".utf8)
        let prefix = bytes.count
        bytes.reserveCapacity(prefix + min(html.utf8.count, maximumBytes))
        for byte in html.utf8.prefix(maximumBytes + 1) {
            bytes.append(byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D ? 0x20 : byte)
        }
        if bytes.count - prefix > maximumBytes {
            // Back to the first byte of the character the bound falls in (UTF-8 continuations are 10xxxxxx).
            var end = prefix + maximumBytes
            while end > prefix && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.removeSubrange(end...)
        }
        let reader = EventReader()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters -> Bool in
                guard let context = htmlCreateMemoryParserCtxt(characters.baseAddress, Int32(characters.count))
                else { return false }
                defer { htmlFreeParserCtxt(context) }
                // Not the Latin-1 an HTML file without a declared encoding is taken to be; and no <meta
                // charset> in the fragment switches it (HTML_PARSE_IGNORE_ENC).
                guard xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8) == 0 else { return false }
                context.pointee.sax.pointee = EventReader.handler
                context.pointee._private = Unmanaged.passUnretained(reader).toOpaque()
                let options: [htmlParserOption] = [
                    HTML_PARSE_NONET, HTML_PARSE_NOERROR, HTML_PARSE_NOWARNING, HTML_PARSE_NOIMPLIED,
                    HTML_PARSE_NODEFDTD, HTML_PARSE_IGNORE_ENC,
                ]
                _ = htmlCtxtUseOptions(context, Int32(options.reduce(0) { $0 | $1.rawValue }))
                // Malformed HTML is what the parser recovers from: its status says only that there was some.
                _ = withExtendedLifetime(reader) { htmlParseDocument(context) }
                return true
            }
        }
        // No parser (out of memory), or not in UTF-8: the whole fragment is text, escaped wherever it goes.
        guard parsed else { return [.text(visible(html))] }
        reader.finishText()
        return reader.events
    }

    /// `text` with its control characters (C0 and C1 but tab, line feed and carriage return) as spaces:
    /// they must reach neither a terminal nor a page.
    package static func visible(_ text: String) -> String {
        func hidden(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
        }
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { hidden($0) ? " " : $0 }))
    }
}

/// The events of one parse, gathered by libxml2's SAX callbacks (C functions, which find the reader
/// through the parser context's `_private`). Confined to the thread that parses.
private final class EventReader {
    private(set) var events: [HTMLEvent] = []
    /// Text since the last tag: libxml2 hands a run over in pieces (around each reference).
    private var text = ""
    private var depth = 0
    /// Past `maximumDepth`: the parser is stopped, and what it still reports (closing what was open) is not read.
    private var stopped = false

    /// The callbacks (made for each parse: a C struct is not `Sendable`, so it cannot be one shared value).
    static var handler: htmlSAXHandler {
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            guard let (reader, parser) = EventReader.of(context), let name else { return }
            reader.depth += 1
            guard reader.depth <= HTMLFragment.maximumDepth else {
                reader.stopped = true
                return xmlStopParser(parser)
            }
            reader.start(String(cString: name), attributes)
        }
        handler.endElement = { context, name in
            guard let (reader, _) = EventReader.of(context), let name else { return }
            reader.depth -= 1
            let tag = String(cString: name)
            reader.tag(tag, .end(tag))
        }
        // Whitespace the parser finds ignorable is text all the same.
        handler.characters = { context, characters, length in
            guard let (reader, _) = EventReader.of(context), let characters else { return }
            reader.text += HTMLFragment.visible(
                String(decoding: UnsafeBufferPointer(start: characters, count: Int(length)), as: UTF8.self))
        }
        handler.ignorableWhitespace = handler.characters
        // Script and style contents are code, never text (a browser would not show them either).
        handler.cdataBlock = { _, _, _ in }
        return handler
    }

    /// The reader of the parse `context` belongs to, nil once stopped. Set in `_private` before the parse
    /// and released after it: the reader outlives every callback.
    private static func of(_ context: UnsafeMutableRawPointer?) -> (EventReader, UnsafeMutablePointer<xmlParserCtxt>)? {
        guard let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self),
            let reader = parser.pointee._private
        else { return nil }
        let eventReader = Unmanaged<EventReader>.fromOpaque(reader).takeUnretainedValue()
        return eventReader.stopped ? nil : (eventReader, parser)
    }

    private func start(_ name: String, _ pairs: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        var attributes: [String: String] = [:]
        var pair = pairs
        while let attribute = pair?[0] {
            let key = String(cString: attribute)
            if attributes[key] == nil {
                attributes[key] = pair?[1].map { HTMLFragment.visible(String(cString: $0)) } ?? ""
            }
            pair = pair?.advanced(by: 2)
        }
        tag(name, .start(name, attributes: attributes))
    }

    /// A tag's event, but the container's.
    private func tag(_ name: String, _ event: HTMLEvent) {
        finishText()
        if name != HTMLFragment.container { events.append(event) }
    }

    func finishText() {
        if !text.isEmpty { events.append(.text(text)) }
        text = ""
    }
}

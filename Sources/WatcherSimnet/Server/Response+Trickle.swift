import Hummingbird

extension Response {
    /// A response with `body`; with `trickleOver`, the body goes out in 10 chunks spread over that time (the
    /// simnet's and the fixture server's `trickle` fault).
    package static func bytes(
        _ bytes: [UInt8],
        status: HTTPResponse.Status,
        headers: HTTPFields,
        trickleOver duration: Duration? = nil
    ) -> Response {
        guard let duration, !bytes.isEmpty else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let chunkSize = max(1, (bytes.count + 9) / 10)
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map {
            Array(bytes[$0..<min(bytes.count, $0 + chunkSize)])
        }
        let pause = duration / max(1, chunks.count)
        let body = ResponseBody(contentLength: bytes.count) { writer in
            for chunk in chunks {
                try await writer.write(ByteBuffer(bytes: chunk))
                try await Task.sleep(for: pause)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}

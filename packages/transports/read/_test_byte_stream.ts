// A byte stream (`type: "bytes"`, as fetch bodies are) that answers BYOB requests as a runtime body
// does, copying into the reader's view, and enqueues a copy for a default reader. For the tests
// and benchmarks of the whole-body reader.

/** The stream, whether it was cancelled, and how many times it was pulled. */
export interface TestByteStream {
  readonly stream: ReadableStream<Uint8Array>;
  cancelled(): boolean;
}

/**
 * A byte stream of `chunks` (empty chunks skipped); after `stallAt` pulls it never answers again.
 */
export function byteStream(chunks: readonly Uint8Array[], stallAt = Infinity): TestByteStream {
  let index = 0;
  let offset = 0;
  let pulls = 0;
  let cancelled = false;
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (pulls++ >= stallAt) return new Promise<void>(() => {});
      while (chunks[index]?.length === 0) index++; // nothing to answer with
      const chunk = chunks[index];
      const request = controller.byobRequest;
      if (chunk === undefined) {
        controller.close();
        request?.respond(0);
        return;
      }
      if (request?.view) {
        const view = new Uint8Array(
          request.view.buffer,
          request.view.byteOffset,
          request.view.byteLength,
        );
        const n = Math.min(view.length, chunk.length - offset);
        view.set(chunk.subarray(offset, offset + n));
        offset += n;
        request.respond(n);
      } else {
        controller.enqueue(chunk.slice(offset));
        offset = chunk.length;
      }
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream: stream as ReadableStream<Uint8Array>, cancelled: () => cancelled };
}

/** A Response over `stream`, with a `Content-Length` when `length` is given. */
export function responseOf(stream: ReadableStream<Uint8Array>, length?: number): Response {
  return new Response(
    stream,
    length === undefined ? {} : { headers: { "content-length": String(length) } },
  );
}

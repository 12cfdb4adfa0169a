// Length-prefixed frames, the Python sandbox's channel both ways: a 4-byte big-endian length, then
// that many bytes. The server's reader is the one that matters: whatever the sandbox process writes
// (its own host code included: user code can reach the same file descriptors), a frame is either
// whole and within its bound or the reader reports why not, once, and reads nothing more. It never
// throws into the stream's 'data' handler, which would be an exception in the server's event loop.

const HEADER_BYTES = 4;

export function encodeFrame(payload: Uint8Array | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.byteLength);
  frame.writeUInt32BE(body.byteLength, 0);
  frame.set(body, HEADER_BYTES);
  return frame;
}

/**
 * Splits chunks into frames of at most `maxBytes`: `onFrame` hears each whole one, `onBroken` why the
 * stream is not frames (an oversized length, or `onFrame` throwing), after which `push` ignores
 * everything. A frame is copied once, when it is whole, however many chunks it came in.
 */
export function createFrameReader(options: {
  maxBytes: number;
  onFrame: (frame: Buffer) => void;
  onBroken: (reason: string) => void;
}) {
  let chunks: Buffer[] = [];
  let buffered = 0;
  let broken = false;

  const take = (count: number): Buffer => {
    const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
    chunks = joined.byteLength > count ? [joined.subarray(count)] : [];
    buffered -= count;
    return joined.subarray(0, count);
  };

  /** The next frame's length (the chunks joined first when the header straddles them). */
  const nextLength = (): number => {
    if (chunks[0]!.byteLength < HEADER_BYTES) chunks = [Buffer.concat(chunks, buffered)];
    return chunks[0]!.readUInt32BE(0);
  };

  return {
    push(chunk: Buffer): void {
      if (broken) return;
      chunks.push(chunk);
      buffered += chunk.byteLength;
      try {
        while (buffered >= HEADER_BYTES) {
          const length = nextLength();
          if (length > options.maxBytes) {
            broken = true;
            options.onBroken(`a frame of ${length} bytes, over the bound of ${options.maxBytes}`);
            return;
          }
          if (buffered < HEADER_BYTES + length) return;
          take(HEADER_BYTES);
          options.onFrame(Buffer.from(take(length)));
          if (broken) return;
        }
      } catch (error) {
        broken = true;
        options.onBroken(error instanceof Error ? error.message : String(error));
      }
    },
    /** Reads nothing more (the channel was judged broken by the caller). */
    stop(): void {
      broken = true;
      chunks = [];
      buffered = 0;
    },
  };
}

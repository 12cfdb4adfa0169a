import { randomUUID } from 'node:crypto';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. A longer text is sent as numbered
 * pieces, `~<id>:<index>:<count>:<piece>`, each under the limit, and put back together by the
 * listeners. A text that fits goes as it is, unless it starts with `~` (JSON never does).
 */
export const NOTIFY_MAX_BYTES = 7999;
const HEADER_ROOM = 64; // `~`, a UUID, two counters and three colons
const CHUNK_MARK = '~';

/** The NOTIFY payloads that carry `text`, in order; a single one when it fits. */
export function splitForNotify(text: string, maxBytes: number = NOTIFY_MAX_BYTES): string[] {
  if (!text.startsWith(CHUNK_MARK) && Buffer.byteLength(text) <= maxBytes) return [text];
  const room = maxBytes - HEADER_ROOM;
  const pieces: string[] = [];
  let piece = '';
  let pieceBytes = 0;
  // By code point, so a piece never ends inside a UTF-8 sequence or a surrogate pair.
  for (const character of text) {
    const bytes = Buffer.byteLength(character);
    if (pieceBytes + bytes > room) {
      pieces.push(piece);
      piece = '';
      pieceBytes = 0;
    }
    piece += character;
    pieceBytes += bytes;
  }
  pieces.push(piece);
  const id = randomUUID();
  return pieces.map((part, index) => `${CHUNK_MARK}${id}:${index}:${pieces.length}:${part}`);
}

interface Pending {
  pieces: (string | undefined)[];
  received: number;
  firstAt: number;
}

/**
 * Puts pieces back together. `accept` returns the whole text once its last piece arrives (in any
 * order), the text itself for an unsplit payload, and undefined otherwise. Texts whose pieces stop
 * arriving (the sender died mid-way) are forgotten after `ttlMs`; at most `maxPending` are kept.
 */
export function createNotifyReassembler(options: { now: () => Date; ttlMs?: number; maxPending?: number }) {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxPending = options.maxPending ?? 256;
  const pending = new Map<string, Pending>();

  function forgetStale(now: number): void {
    for (const [id, entry] of pending) if (now - entry.firstAt > ttlMs) pending.delete(id);
    while (pending.size > maxPending) pending.delete(pending.keys().next().value as string);
  }

  return {
    accept(payload: string): string | undefined {
      if (!payload.startsWith(CHUNK_MARK)) return payload;
      const match = /^~([0-9a-f-]{36}):(\d+):(\d+):/.exec(payload);
      if (!match) return undefined;
      const [header, id, indexText, countText] = match as unknown as [string, string, string, string];
      const index = Number(indexText);
      const count = Number(countText);
      if (count < 1 || index >= count) return undefined;
      const now = options.now().getTime();
      forgetStale(now);
      let entry = pending.get(id);
      if (!entry) {
        entry = { pieces: new Array<string | undefined>(count), received: 0, firstAt: now };
        pending.set(id, entry);
      }
      if (entry.pieces.length !== count || entry.pieces[index] !== undefined) return undefined;
      entry.pieces[index] = payload.slice(header.length);
      entry.received += 1;
      if (entry.received < count) return undefined;
      pending.delete(id);
      return entry.pieces.join('');
    },

    /** Texts waiting for pieces. */
    pendingCount(): number {
      return pending.size;
    },
  };
}

/**
 * Pre-signed SOL transfers pushed through `sendTransaction` over keep-alive HTTP/1.1 connections: the
 * shared machinery of the localnet-send (standalone cluster) and rpc-send (the app's /rpc) benchmarks.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstruction,
  blockhash as toBlockhash,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
  type Address,
  type KeyPairSigner,
  type SignatureBytes,
} from '@solana/kit';

const SENTINEL = 0x0123_4567_89ab_cdefn;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export interface SignedTransfer {
  /** The whole JSON-RPC request body. */
  readonly body: string;
  readonly signature: string;
}

function post(url: URL, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * One keep-alive HTTP/1.1 connection with a single request in flight, written and parsed by hand
 * so the client, which shares the machine's two cores with the server, costs as little as possible.
 */
export class KeepAliveConnection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (body: string) => void; reject: (error: Error) => void } | undefined;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.waiting?.reject(error));
  }

  static open(url: URL): Promise<KeepAliveConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new KeepAliveConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** The complete HTTP request for a body, to build ahead of the timed window. */
  static encodeRequest(url: URL, body: string): Buffer {
    return Buffer.from(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  /** Sends a request built by {@link encodeRequest} and resolves with the response body. */
  send(request: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headerEnd = this.buffered.indexOf('\r\n\r\n');
    if (headerEnd === -1) return;
    const header = this.buffered.toString('latin1', 0, headerEnd);
    const length = /content-length: *(\d+)/i.exec(header);
    if (length === null) {
      this.waiting?.reject(new Error(`response without content-length: ${header}`));
      return;
    }
    const end = headerEnd + 4 + Number(length[1]);
    if (this.buffered.length < end) return;
    const body = this.buffered.toString('utf8', headerEnd + 4, end);
    this.buffered = this.buffered.subarray(end);
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!header.startsWith('HTTP/1.1 200')) waiting?.reject(new Error(header.split('\r\n')[0]));
    else waiting?.resolve(body);
  }
}

/** One JSON-RPC call (throws the error's message). */
export async function call<T>(url: URL, method: string, params: unknown[]): Promise<T> {
  const response = JSON.parse(await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as {
    result?: T;
    error?: { message: string };
  };
  if (response.error !== undefined) throw new Error(`${method}: ${response.error.message}`);
  return response.result as T;
}

/** CPU time a process has used (user, system), in microseconds, from /proc (Linux only). */
export async function processCpuMicros(pid: number): Promise<{ user: number; system: number } | undefined> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat (clock ticks); index 11 and 12 after the name.
    return { user: (Number(fields[11]) * 1_000_000) / 100, system: (Number(fields[12]) * 1_000_000) / 100 };
  } catch {
    return undefined;
  }
}

/**
 * Pre-signs `count` distinct transfers from `payer`: kit compiles one transfer message, each copy
 * gets its own amount (so its own signature) and is signed with kit's signBytes.
 */
export async function presign(
  payer: KeyPairSigner,
  recipients: readonly Address[],
  count: number,
  offset: number,
  lifetime: { blockhash: string; lastValidBlockHeight: bigint },
): Promise<SignedTransfer[]> {
  const templates = recipients.map((recipient) =>
    compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) =>
          setTransactionMessageLifetimeUsingBlockhash(
            {
              blockhash: toBlockhash(lifetime.blockhash),
              lastValidBlockHeight: lifetime.lastValidBlockHeight,
            },
            draft,
          ),
        (draft) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: payer, destination: recipient, amount: SENTINEL }),
            draft,
          ),
      ),
    ),
  );
  const sentinel = Buffer.alloc(8);
  sentinel.writeBigUInt64LE(SENTINEL);
  const encoder = getTransactionEncoder();
  const base58 = getBase58Decoder();
  const out: SignedTransfer[] = [];
  for (let start = 0; start < count; start += 500) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(500, count - start) }, async (_, index) => {
        const sequence = offset + start + index;
        const template = templates[sequence % templates.length]!;
        const messageBytes = Buffer.from(template.messageBytes);
        const at = messageBytes.indexOf(sentinel);
        messageBytes.writeBigUInt64LE(BigInt(1_000 + sequence), at);
        const signature = await signBytes(payer.keyPair.privateKey, messageBytes);
        const wire = encoder.encode({
          messageBytes: messageBytes as unknown as typeof template.messageBytes,
          signatures: { [payer.address]: signature as SignatureBytes } as typeof template.signatures,
        });
        const id = sequence;
        const body = `{"jsonrpc":"2.0","id":${id},"method":"sendTransaction","params":["${Buffer.from(wire).toString('base64')}",{"encoding":"base64"}]}`;
        return { body, signature: base58.decode(signature) };
      }),
    );
    out.push(...batch);
  }
  return out;
}

/**
 * Funds 4 payers and 8 recipients through `url`'s faucet and pre-signs `count` distinct transfers
 * among them (outside any timed window).
 */
export async function prepareTransfers(url: URL, count: number): Promise<SignedTransfer[]> {
  // Given funded payers and existing recipients (a transfer may not create an account below rent)
  const payers = await Promise.all(Array.from({ length: 4 }, () => generateKeyPairSigner()));
  const recipients = await Promise.all(Array.from({ length: 8 }, () => generateKeyPairSigner()));
  // 5 SOL (a public client's largest airdrop) pays the fees of far more transfers than one run sends.
  for (const payer of payers) await call(url, 'requestAirdrop', [payer.address, 5 * 1e9]);
  for (const recipient of recipients) await call(url, 'requestAirdrop', [recipient.address, 1e9]);
  const { value: lifetime } = await call<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    url,
    'getLatestBlockhash',
    [{ commitment: 'confirmed' }],
  );
  const presignStarted = performance.now();
  const perPayer = Math.ceil(count / payers.length);
  const signed = (
    await Promise.all(
      payers.map((payer, index) =>
        presign(
          payer,
          recipients.map((recipient) => recipient.address),
          Math.min(perPayer, count - index * perPayer),
          index * perPayer,
          { blockhash: lifetime.blockhash, lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight) },
        ),
      ),
    )
  ).flat();
  console.error(
    `presigned ${signed.length} transfers in ${((performance.now() - presignStarted) / 1000).toFixed(1)} s`,
  );
  return signed;
}

/**
 * Sends every transfer over `connections` keep-alive connections, one request in flight on each,
 * and answers the window's length and the answers that were not the transfer's signature.
 */
export async function pushTransfers(
  url: URL,
  signed: readonly SignedTransfer[],
  connections: number,
): Promise<{ seconds: number; errors: number }> {
  const requests = signed.map((item) => KeepAliveConnection.encodeRequest(url, item.body));
  const open = await Promise.all(Array.from({ length: connections }, () => KeepAliveConnection.open(url)));
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    open.map(async (connection) => {
      while (next < signed.length) {
        const index = next++;
        const item = signed[index]!;
        const answer = await connection.send(requests[index]!);
        // The expected answer is tiny; check it without a full JSON parse.
        if (!answer.includes(`"result":"${item.signature}"`)) {
          errors += 1;
          if (errors <= 3) console.error('unexpected answer:', answer);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const connection of open) connection.close();
  return { seconds, errors };
}

/** How many of the last 256 transfers the cluster does not know (getSignatureStatuses). */
export async function missingFromLog(url: URL, signed: readonly SignedTransfer[]): Promise<number> {
  const sample = signed.slice(-256).map((item) => item.signature);
  const { value: statuses } = await call<{ value: unknown[] }>(url, 'getSignatureStatuses', [sample]);
  return statuses.filter((status) => status === null).length;
}

export function destroyAgent(): void {
  agent.destroy();
}

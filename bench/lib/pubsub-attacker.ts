import WebSocket from 'ws';

// The attacker side of the PubSub amplification benchmark, in its own process so that reading its
// notifications never delays the measuring client: opens CONNECTIONS WebSockets to the URL in argv
// as one client (X-Forwarded-For: the given address, behind a trusted proxy hop), subscribes each to
// the account with distinct dataSlices (base64, processed) until the server refuses one, tells the
// parent how many it holds, then reads and counts every notification until told to stop.
const [url, account, connectionsText, clientIp, dataLengthText] = process.argv.slice(2);
const connections = Number(connectionsText);
const dataLength = Number(dataLengthText);
const MAX_PER_CONNECTION = 256;

let notifications = 0;
let bytes = 0;
const accepted: number[] = [];
let refusal: string | undefined;
const sockets: WebSocket[] = [];
let slice = 0;

for (let index = 0; index < connections; index += 1) {
  const socket = new WebSocket(url!, { headers: { 'x-forwarded-for': clientIp! } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let answer: ((message: { result?: unknown; error?: { message: string } }) => void) | undefined;
  socket.on('message', (raw: Buffer) => {
    if (answer === undefined) {
      notifications += 1;
      bytes += raw.length;
      return;
    }
    const resolve = answer;
    answer = undefined;
    resolve(JSON.parse(raw.toString()) as { result?: unknown; error?: { message: string } });
  });
  let held = 0;
  while (held < MAX_PER_CONNECTION) {
    const reply = new Promise<{ result?: unknown; error?: { message: string } }>(
      (resolve) => (answer = resolve),
    );
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: held,
        method: 'accountSubscribe',
        params: [
          account,
          { encoding: 'base64', commitment: 'processed', dataSlice: { offset: slice, length: dataLength } },
        ],
      }),
    );
    slice += 1;
    const message = await reply;
    if (message.error) {
      refusal = message.error.message;
      break;
    }
    held += 1;
  }
  accepted.push(held);
  sockets.push(socket);
}

process.send?.({ type: 'ready', accepted, refusal });
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  const closed = sockets.filter((socket) => socket.readyState !== socket.OPEN).length;
  process.send?.({ type: 'done', notifications, bytes, closed });
  for (const socket of sockets) socket.terminate();
  setImmediate(() => process.exit(0));
});

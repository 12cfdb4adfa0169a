import WebSocket from 'ws';

// The client side of the fan-out benchmark, in its own process (as real clients would be): opens N
// sockets to the URL given in argv, subscribes each to `prices`, tells the parent when ready, and
// for every tick reports when the last socket received it (epoch milliseconds, µs precision). The
// first tick is parsed to check it; later ones are only counted, since real clients parse on their
// own machines.
const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const now = () => performance.timeOrigin + performance.now();
let received = 0;
const sockets: WebSocket[] = [];

for (let index = 0; index < count; index += 1) {
  const socket = new WebSocket(url!);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const subscribed = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  socket.send(JSON.stringify({ type: 'subscribe', channel: 'prices' }));
  await subscribed;
  let checked = false;
  socket.on('message', (raw) => {
    if (!checked) {
      const message = JSON.parse(raw.toString()) as { channel?: string };
      if (message.channel !== 'prices') throw new Error(`unexpected message ${raw.toString()}`);
      checked = true;
    }
    received += 1;
    if (received === count) {
      received = 0;
      process.send?.({ type: 'all-received', at: now() });
    }
  });
  sockets.push(socket);
}
process.send?.({ type: 'ready' });
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});

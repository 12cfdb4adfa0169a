// Development: the API server (restarting on change) and Vite's dev server with hot reload, which
// proxies /api, /ws and /rpc to the API. Open http://localhost:5173.
import { spawn } from 'node:child_process';

const children = [
  spawn('node', ['--import', 'tsx', '--watch', 'apps/server/src/server.ts'], { stdio: 'inherit' }),
  spawn('../../node_modules/.bin/vite', ['--port', '5173'], { stdio: 'inherit', cwd: 'apps/web' }),
];

function stop(): void {
  for (const child of children) child.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());

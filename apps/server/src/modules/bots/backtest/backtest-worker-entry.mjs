// The backtest worker thread's entry: plain JavaScript, because a worker does not inherit the
// TypeScript loader of its parent (node --import tsx, or vitest). It registers tsx, then runs it.
import { register } from 'tsx/esm/api';

register();
await import('./backtest-worker.ts');

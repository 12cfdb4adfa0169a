// The worker thread's entry: plain JavaScript, because a worker does not inherit the TypeScript
// loader of its parent (node --import tsx, or vitest). It registers tsx, then runs the worker; or
// it runs the bundle the test suite built once for its run (apps/server/test/setup/worker-bundles.ts).
const bundles = process.env.SOLTERM_TEST_WORKER_BUNDLES;
if (bundles) {
  await import(new URL('cluster-worker-entry.mjs', bundles).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cluster-worker.ts');
}

import { inject } from 'vitest';

// Worker threads (and child processes) started from here read it in their entry (worker-bundles.ts).
const bundles = inject('workerBundles');
if (bundles) process.env.SOLTERM_TEST_WORKER_BUNDLES = bundles;

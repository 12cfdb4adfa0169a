import { afterEach, describe, expect, it } from 'vitest';
import type { QuickJSContext, QuickJSRuntime } from 'quickjs-emscripten';
import { computeMeter, DESCHEDULED_GRACE_MS, loadQuickJs } from './js-strategy';
import { threadCpuMs } from './thread-cpu';

// The meter's budget is the run's CPU time: a thread kept off a CPU (a busy machine) does not fail a
// run that computed within its budget, while a run that computes past it is stopped as before.

const BUDGET_MS = 50;

describe('the compute meter', () => {
  let runtime: QuickJSRuntime | undefined;
  let vm: QuickJSContext | undefined;
  afterEach(() => {
    vm?.dispose();
    runtime?.dispose();
  });

  /**
   * A context whose `offCpu(ms)` keeps the thread waiting without computing, as a descheduled
   * thread, and whose `cpuMs()` reads the thread's CPU time.
   */
  async function metered() {
    runtime = (await loadQuickJs()).newRuntime();
    const meter = computeMeter(runtime, BUDGET_MS);
    vm = runtime.newContext();
    const blocker = new Int32Array(new SharedArrayBuffer(4));
    const offCpu = vm.newFunction('offCpu', (ms) => {
      Atomics.wait(blocker, 0, 0, vm!.getNumber(ms));
    });
    vm.setProp(vm.global, 'offCpu', offCpu);
    offCpu.dispose();
    const cpuMs = vm.newFunction('cpuMs', () => vm!.newNumber(threadCpuMs()));
    vm.setProp(vm.global, 'cpuMs', cpuMs);
    cpuMs.dispose();
    const run = (code: string) =>
      meter.run(() => {
        const result = vm!.evalCode(code);
        if (result.error) {
          const error = vm!.dump(result.error) as { message: string };
          result.error.dispose();
          return `thrown: ${error.message}`;
        }
        result.value.dispose();
        return 'done';
      });
    return { meter, run };
  }

  it('lets a run finish that spent four times its budget off a CPU and little on one', async () => {
    const { run } = await metered();
    const started = performance.now();
    expect(run('for (let i = 0; i < 20; i += 1) { offCpu(10); for (let j = 0; j < 100; j += 1); }')).toBe(
      'done',
    );
    expect(performance.now() - started).toBeGreaterThan(4 * BUDGET_MS);
  });

  it('stops a run that computes past its budget', async () => {
    const { run } = await metered();
    expect(run('for (;;);')).toBe('thrown: interrupted');
  });

  it('stops a run that computes past its budget between waits', async () => {
    const { run } = await metered();
    expect(run('for (;;) { offCpu(5); for (let j = 0; j < 200000; j += 1); }')).toBe('thrown: interrupted');
  });

  it('stops a run kept off a CPU longer than its budget and the grace', async () => {
    const { run } = await metered();
    const started = performance.now();
    // (a wait of 400 ms between bits of compute: a few wake-ups in the grace, whose compute stays far
    // below the budget even on a busy machine, where one wake-up took ~3 ms of CPU at 100 ms waits)
    expect(run('for (;;) { offCpu(400); for (let j = 0; j < 1000; j += 1); }')).toBe('thrown: interrupted');
    expect(performance.now() - started).toBeGreaterThan(BUDGET_MS + DESCHEDULED_GRACE_MS);
  });

  it('counts a budget over several runs until a new one starts', async () => {
    const { meter, run } = await metered();
    const spin = (ms: number) => `{ const end = cpuMs() + ${ms}; while (cpuMs() < end); }`;
    expect(run(spin(30))).toBe('done');
    // (the handler is polled every few ms of compute: a spin well past the rest is stopped in it)
    expect(run(spin(100))).toBe('thrown: interrupted');
    meter.budget(BUDGET_MS);
    expect(run(spin(30))).toBe('done');
  });
});

import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from './keyed-queue';

describe('createKeyedQueue', () => {
  it("runs one key's work in order, past a failure, beside another key's, and forgets an idle key", async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run('a', async () => {
      await held;
      log.push('a1');
      throw new Error('a1 failed');
    });
    const second = queue.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = queue.run('b', async () => {
      log.push('b1');
      return 'b';
    });

    expect(await other).toBe('b');
    expect(log).toEqual(['b1']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(log).toEqual(['b1', 'a1', 'a2']);
    await Promise.resolve();
    await Promise.resolve();
    expect(queue.size).toBe(0);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHotAnswers, createPerSecondAnswer, type HotAnswer } from './hot-answers';

const SECURITY: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
];

describe('hot answers', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    const open = server;
    server = undefined;
    open?.closeAllConnections();
    if (open) await new Promise((resolve) => open.close(resolve));
  });

  /** A server whose only handler is a stand-in for Fastify's (it counts what reaches it). */
  async function serverWith(current: () => HotAnswer | undefined) {
    const routed: string[] = [];
    const hot = createHotAnswers(SECURITY);
    server = http.createServer((request, response) => {
      routed.push(`${request.method} ${request.url}`);
      response.writeHead(418).end();
    });
    hot.route('/hot', current);
    hot.install(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { hot, routed, base };
  }

  it('answers an exact GET with the bytes and headers, and 304 to a client holding them', async () => {
    const hot = createHotAnswers(SECURITY);
    const answer = hot.answerOf({ btc: 1 });
    const { routed, base } = await serverWith(() => answer);

    const full = await fetch(`${base}/hot`);
    expect(full.status).toBe(200);
    expect(await full.text()).toBe('{"success":true,"data":{"btc":1}}');
    expect(full.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(full.headers.get('referrer-policy')).toBe('no-referrer');
    expect(full.headers.get('cache-control')).toBe('no-cache');
    const etag = full.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const held = await fetch(`${base}/hot`, { headers: { 'if-none-match': etag } });
    expect(held.status).toBe(304);
    expect(held.headers.get('etag')).toBe(etag);
    expect(held.headers.get('x-content-type-options')).toBe('nosniff');
    expect(routed).toEqual([]);
  });

  it('leaves to the router what it does not hold: other paths and methods, a query, no answer yet, closing', async () => {
    const ready: { answer?: HotAnswer } = {};
    const { hot, routed, base } = await serverWith(() => ready.answer);

    await fetch(`${base}/hot`);
    ready.answer = hot.answerOf([]);
    await fetch(`${base}/hot?x=1`);
    await fetch(`${base}/hot`, { method: 'HEAD' });
    await fetch(`${base}/other`);
    expect((await fetch(`${base}/hot`)).status).toBe(200);
    hot.close();
    await fetch(`${base}/hot`);

    expect(routed).toEqual(['GET /hot', 'GET /hot?x=1', 'HEAD /hot', 'GET /other', 'GET /hot']);
  });

  it('encodes once per second, whoever asks first, and is current only within that second', async () => {
    let now = 10_000;
    let builds = 0;
    const hot = createHotAnswers(SECURITY);
    const answers = createPerSecondAnswer(
      hot,
      z.object({ n: z.number() }),
      () => new Date(now),
      async () => ({ n: ++builds }),
    );

    expect(answers.current()).toBeUndefined();
    const [first, same] = await Promise.all([answers.answer(), answers.answer()]);
    expect(same).toBe(first);
    expect(answers.current()).toBe(first);
    expect(first.body.toString()).toBe('{"success":true,"data":{"n":1}}');

    now += 999;
    expect(answers.current()).toBe(first);
    now += 1;
    expect(answers.current()).toBeUndefined();
    const next = await answers.answer();
    expect(next.body.toString()).toBe('{"success":true,"data":{"n":2}}');
    expect(next.etag).not.toBe(first.etag);
    expect(builds).toBe(2);
  });

  it('refuses an answer its schema refuses, and tries again on the next request', async () => {
    let value: unknown = { n: 'not a number' };
    const answers = createPerSecondAnswer(
      createHotAnswers(SECURITY),
      z.object({ n: z.number() }),
      () => new Date(0),
      async () => value as { n: number },
    );

    await expect(answers.answer()).rejects.toThrow();
    expect(answers.current()).toBeUndefined();
    value = { n: 1 };
    expect((await answers.answer()).body.toString()).toBe('{"success":true,"data":{"n":1}}');
  });
});

import { describe, expect, it } from 'vitest';
import type { TFuturesPosition } from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { botTriggers, liquidationTriggers, priceTrigger, type BotRunActivity } from './alert-rules';
import { isPrivateAddress } from './webhook-target';

const position = (over: Partial<TFuturesPosition>): TFuturesPosition =>
  ({
    id: 'p1',
    symbol: 'SOL-PERP',
    market_symbol: 'SOL-PERP',
    side: 'Long',
    size: '1',
    mark_price: '100',
    liquidation_price: '90',
    ...over,
  }) as TFuturesPosition;

describe('alert rules', () => {
  it('price: above and below are inclusive; change_percent signs pick a rise or a fall', () => {
    const rule = { pair: 'SOL/USDC', condition: 'above' as const, value: '100' };
    expect(priceTrigger(rule, new Dec('100'), null)?.key).toBe('price');
    expect(priceTrigger(rule, new Dec('99.99'), null)).toBeNull();
    expect(priceTrigger({ ...rule, condition: 'below' }, new Dec('99.99'), null)?.oneShot).toBe(true);
    const change = { pair: 'SOL/USDC', condition: 'change_percent' as const, value: '5' };
    expect(priceTrigger(change, new Dec('105'), new Dec('100'))).not.toBeNull();
    expect(priceTrigger(change, new Dec('104.99'), new Dec('100'))).toBeNull();
    expect(priceTrigger(change, new Dec('90'), new Dec('100'))).toBeNull();
    expect(priceTrigger({ ...change, value: '-5' }, new Dec('95'), new Dec('100'))).not.toBeNull();
    expect(priceTrigger({ ...change, value: '-5' }, new Dec('96'), new Dec('100'))).toBeNull();
    expect(priceTrigger(change, new Dec('105'), null)).toBeNull();
  });

  it('liquidation risk: within the distance of the mark, per position, filtered by symbol', () => {
    const rule = { distance_percent: 10 };
    expect(liquidationTriggers(rule, [position({})]).map((t) => t.key)).toEqual(['position:p1']);
    expect(liquidationTriggers(rule, [position({ liquidation_price: '89.99' })])).toEqual([]);
    expect(liquidationTriggers(rule, [position({ side: 'Short', liquidation_price: '110' })])).toHaveLength(
      1,
    );
    expect(liquidationTriggers(rule, [position({ liquidation_price: null })])).toEqual([]);
    expect(liquidationTriggers({ ...rule, symbol: 'BTC-PERP' }, [position({})])).toEqual([]);
  });

  it('bot: each event of a run once by key, and only those chosen and since the alert', () => {
    const since = new Date('2026-01-01T00:00:00Z');
    const run = (over: Partial<BotRunActivity>): BotRunActivity => ({
      runId: 'r1',
      botId: 'b1',
      botName: 'B',
      status: 'running',
      message: null,
      startedAt: new Date('2026-01-01T00:01:00Z'),
      stoppedAt: null,
      endsAt: new Date('2026-01-02T00:00:00Z'),
      fills: [{ seq: 0, time: new Date('2026-01-01T00:02:00Z'), side: 'Buy', reason: 'signal' }],
      ...over,
    });
    const all = ['started', 'stopped', 'fill', 'error', 'completed'] as const;
    expect(botTriggers(all, [run({})], since).map((t) => t.key)).toEqual(['started:r1', 'fill:r1:0']);
    expect(botTriggers(['fill'], [run({ fills: [] })], since)).toEqual([]);
    expect(
      botTriggers(all, [run({ status: 'failed', stoppedAt: new Date('2026-01-01T01:00:00Z') })], since).map(
        (t) => t.key,
      ),
    ).toContain('error:r1');
    expect(
      botTriggers(all, [run({ status: 'stopped', stoppedAt: new Date('2026-01-02T00:00:00Z') })], since).map(
        (t) => t.key,
      ),
    ).toContain('completed:r1');
    expect(
      botTriggers(all, [run({ startedAt: new Date('2025-12-31T00:00:00Z'), fills: [] })], since),
    ).toEqual([]);
  });

  it('private addresses: v4 ranges, v6 loopback, link-local, unique-local and v4-mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
      'not-an-ip',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});

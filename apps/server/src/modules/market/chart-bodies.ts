import { CANDLE_FIELDS, type ChartLayout, type TCandle } from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ChartParts } from './market.service';

/** A closed window's candles serialised, open at the end so the forming candle can follow. */
interface OpenSerialisation {
  /** rows: `[{…},{…}` */
  rows?: Buffer;
  /** columns: per field, `[1,2` */
  columns?: Buffer[];
}

/**
 * The bytes of GET /market/chart answers. The closed candles of a window are the same array for
 * every request until its next candle closes (chart-windows.ts), so their serialisation is kept
 * with that array (a WeakMap: it goes when the window does) and each request only adds the head and
 * the forming candle: a year of hours is then a copy of ~1 MB (rows) or ~0.5 MB (columns), not a
 * JSON.stringify of 8,760 objects.
 */
export function createChartBodies() {
  const serialised = new WeakMap<readonly TCandle[], OpenSerialisation>();
  const text = (value: string) => Buffer.from(value, 'utf8');

  function rows(closed: readonly TCandle[], forming: readonly TCandle[]): Buffer[] {
    const kept = serialised.get(closed) ?? {};
    kept.rows ??= text(JSON.stringify(closed).slice(0, -1));
    serialised.set(closed, kept);
    const tail = forming.map(
      (candle, index) => (closed.length + index > 0 ? ',' : '') + JSON.stringify(candle),
    );
    return [kept.rows, text(`${tail.join('')}]`)];
  }

  function columns(closed: readonly TCandle[], forming: readonly TCandle[]): Buffer[] {
    const kept = serialised.get(closed) ?? {};
    kept.columns ??= CANDLE_FIELDS.map((field) =>
      text(JSON.stringify(closed.map((candle) => candle[field])).slice(0, -1)),
    );
    serialised.set(closed, kept);
    const parts: Buffer[] = [text('{')];
    CANDLE_FIELDS.forEach((field, index) => {
      const tail = forming.map((candle, at) => (closed.length + at > 0 ? ',' : '') + String(candle[field]));
      parts.push(
        text(`${index > 0 ? ',' : ''}"${field}":`),
        kept.columns![index]!,
        text(`${tail.join('')}]`),
      );
    });
    parts.push(text('}'));
    return parts;
  }

  return ({ head, closed, forming }: ChartParts, layout: ChartLayout): Buffer => {
    // `{"success":true,"data":{…head}}` opened before its last two braces to add the candles.
    const envelope = JSON.stringify(ok(head)).slice(0, -2);
    const candles = layout === 'columns' ? columns(closed, forming) : rows(closed, forming);
    return Buffer.concat([
      text(`${envelope},"${layout === 'columns' ? 'columns' : 'candles'}":`),
      ...candles,
      text('}}'),
    ]);
  };
}

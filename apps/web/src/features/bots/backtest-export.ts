import { API_BASE_PATH, type TBacktestResult } from '@solterm/contracts';
import { getStoredToken } from '../../lib/storage-keys';

const CSV_COLUMNS = [
  'time',
  'side',
  'quantity',
  'price',
  'value',
  'fee',
  'slippage',
  'pnl',
  'reason',
] as const;

/** A CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
function field(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The backtest's trade list as CSV: a header row, then one row per fill.
 *
 * @example backtestTradesCsv(result).split('\n')[0]; // 'time,side,quantity,price,value,fee,slippage,pnl,reason'
 */
export function backtestTradesCsv(result: Pick<TBacktestResult, 'trades'>): string {
  const rows = result.trades.map((trade) => CSV_COLUMNS.map((column) => field(trade[column])).join(','));
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
}

/** The whole result as indented JSON (metrics, equity curve and trades). */
export function backtestJson(result: TBacktestResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** Saves text as a file through a temporary link. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Saves every fill of a backtest (GET /api/bots/backtest/exports/{id}: the server streams them, all
 * of them, not only the answer's first 5,000). Rejects with the server's message when it refuses.
 */
export async function downloadBacktestExport(exportId: string, fileName: string): Promise<void> {
  const token = getStoredToken();
  const response = await fetch(`${API_BASE_PATH}/bots/backtest/exports/${encodeURIComponent(exportId)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? `The export failed (${response.status})`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

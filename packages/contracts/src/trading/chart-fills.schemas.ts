import { z } from 'zod';

/** Where a fill on the chart came from: a spot order, a bot run, or a perpetual futures order. */
export const CHART_FILL_SOURCES = ['spot', 'bot', 'futures'] as const;
export type TChartFillSource = (typeof CHART_FILL_SOURCES)[number];

/** Fills GET /trading/fills answers at most: the newest of the window, all sources together. */
export const MAX_CHART_FILLS = 500;

/** The longest window GET /trading/fills reads: 400 days (a chart of 300 daily candles fits). */
export const MAX_CHART_FILLS_WINDOW_SECONDS = 400 * 86_400;

const unixSeconds = (name: string) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int({ message: `${name} must be a whole number of seconds` })
    .min(0, { message: `${name} must be at least 0` })
    .max(99_999_999_999, { message: `${name} is too large` });

/**
 * GET /trading/fills: the caller's fills on a pair between `from` and `to` (unix seconds, both
 * included), at most {@link MAX_CHART_FILLS_WINDOW_SECONDS} apart.
 *
 * @example
 * ZChartFillsQuerySchema.parse({ pair: 'SOL/USDC', from: '1700000000', to: '1700086400' });
 */
export const ZChartFillsQuerySchema = z
  .object({
    pair: z
      .string({ message: 'pair is required' })
      .trim()
      .min(1, { message: 'pair is required' })
      .max(140, { message: 'pair must be at most 140 characters' }),
    from: unixSeconds('from'),
    to: unixSeconds('to'),
  })
  .refine((query) => query.from <= query.to, { message: 'from must not be after to', path: ['from'] })
  .refine((query) => query.to - query.from <= MAX_CHART_FILLS_WINDOW_SECONDS, {
    message: `The window must be at most ${MAX_CHART_FILLS_WINDOW_SECONDS / 86_400} days`,
    path: ['to'],
  });
export type TChartFillsQuery = z.infer<typeof ZChartFillsQuerySchema>;

/**
 * One of the caller's fills as a chart marks it. Futures fills say Buy for a long fill (opening a
 * long or closing a short) and Sell for a short one. `price` and `quantity` are exact decimal strings.
 */
export const ZChartFillSchema = z.object({
  id: z.string(),
  source: z.enum(CHART_FILL_SOURCES),
  /** Who made it, as a marker's label names it: `Spot`, `Bot "Grid SOL"`, `SOL-PERP`. */
  label: z.string(),
  side: z.enum(['Buy', 'Sell']),
  price: z.string(),
  quantity: z.string(),
  /** Unix seconds. */
  time: z.number().int(),
});
export type TChartFill = z.infer<typeof ZChartFillSchema>;

/**
 * GET /trading/fills: the window's fills, newest first. `truncated` is true when the window held
 * more than {@link MAX_CHART_FILLS}: the older ones were left out (ask again with an earlier `to`).
 */
export const ZChartFillsSchema = z.object({
  pair: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  fills: z.array(ZChartFillSchema),
  truncated: z.boolean(),
});
export type TChartFills = z.infer<typeof ZChartFillsSchema>;

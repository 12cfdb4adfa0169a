import { CHART_AXIS_MAX_TICKS, formatPrice, type ChartTheme } from '@solterm/contracts';

/** Font size of the chart's axis labels, in CSS pixels. */
export const CHART_FONT_SIZE = 11;

/** Colours of each chart theme (dark matches the app's canvas; light its light tokens). */
export const CHART_THEME_COLORS: Readonly<
  Record<
    ChartTheme,
    {
      background: string;
      text: string;
      grid: string;
      border: string;
      crosshair: string;
      up: string;
      down: string;
    }
  >
> = {
  dark: {
    background: '#0f1116',
    text: '#8a91a0',
    grid: 'rgba(42, 46, 57, 0.55)',
    border: '#22262f',
    crosshair: '#5d6473',
    up: '#16c784',
    down: '#f0475a',
  },
  light: {
    background: '#ffffff',
    text: '#5b6270',
    grid: 'rgba(225, 228, 234, 0.9)',
    border: '#e1e4ea',
    crosshair: '#8d94a1',
    up: '#0fa870',
    down: '#e23b4e',
  },
};

/**
 * Axis options that keep each axis to at most 10 ticks (spec part 1 §9) at a given chart size.
 * The time axis spaces labels at least `tickMarkMaxCharacterLength` characters apart, each
 * (fontSize + 4) × 5 / 8 pixels wide; the price axis spaces them at least fontSize ×
 * `tickMarkDensity` pixels apart (lightweight-charts 5 internals).
 *
 * @example axisTickOptions(900, 400).timeTickMarkMaxCharacterLength; // 10
 */
export function axisTickOptions(
  width: number,
  height: number,
  fontSize: number = CHART_FONT_SIZE,
): { timeTickMarkMaxCharacterLength: number; priceTickMarkDensity: number } {
  const pixelsPerCharacter = ((fontSize + 4) * 5) / 8;
  // One label fewer than the limit fits the span, so partial labels at the edges never make 11.
  const minTimeSpacing = Math.max(0, width) / (CHART_AXIS_MAX_TICKS - 1);
  const minPriceSpacing = Math.max(0, height) / (CHART_AXIS_MAX_TICKS - 1);
  return {
    timeTickMarkMaxCharacterLength: Math.max(8, Math.ceil(minTimeSpacing / pixelsPerCharacter)),
    priceTickMarkDensity: Math.max(2.5, Math.ceil((minPriceSpacing / fontSize) * 100) / 100),
  };
}

/**
 * The smallest price step to draw for a price level: four significant digits below its magnitude
 * (0.01 for 185.9, 1e-11 for 1.79e-7).
 *
 * @example priceMinMove(185.9); // 0.01
 */
export function priceMinMove(reference: number): number {
  if (!(reference > 0) || !Number.isFinite(reference)) return 0.01;
  const exponent = Math.floor(Math.log10(reference)) - 4;
  return Math.min(0.01, 10 ** Math.max(-18, exponent));
}

/** Axis and legend price labels: the spec's precision table (part 1 §4). */
export function formatChartPrice(price: number): string {
  return formatPrice(price);
}

const TWO_DIGITS = (value: number) => String(value).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Crosshair time label in the viewer's local time: `21 Nov 14:05` (seconds for 1S). */
export function formatChartTime(unixSeconds: number, withSeconds = false): string {
  const date = new Date(unixSeconds * 1000);
  const time = `${TWO_DIGITS(date.getHours())}:${TWO_DIGITS(date.getMinutes())}${
    withSeconds ? `:${TWO_DIGITS(date.getSeconds())}` : ''
  }`;
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${time}`;
}

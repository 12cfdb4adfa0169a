import { hashString } from '../../../lib/counter-hash';

/**
 * A small round token image as an SVG data URI (the simulator serves no network images; the web
 * app's content security policy allows `data:` images). Colour from the symbol, first letters inside.
 */
export function tokenThumb(symbol: string): string {
  const hue = hashString(symbol) % 360;
  const letters = symbol
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 3)
    .toUpperCase();
  const fontSize = letters.length > 2 ? 9 : 12;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">` +
    `<circle cx="16" cy="16" r="16" fill="hsl(${hue},62%,46%)"/>` +
    `<text x="16" y="20" font-family="Arial,sans-serif" font-size="${fontSize}" font-weight="700" fill="#fff" text-anchor="middle">${letters}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * Compact time since launch: `45m`, `7h`, `12d`, `4mo`, `1y 2mo`.
 *
 * @example
 * formatAge(86_400 * 400); // '1y 1mo'
 */
export function formatAge(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${Math.max(0, minutes)}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 60) return `${days}d`;
  const months = Math.floor(days / 30.4375);
  if (months < 12) return `${months}mo`;
  const years = Math.floor(months / 12);
  const rest = months - years * 12;
  return rest > 0 ? `${years}y ${rest}mo` : `${years}y`;
}

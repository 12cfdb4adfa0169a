import type { WalletIcon } from '@wallet-standard/base';

// A small key glyph in the theme's accent colour; Wallet Standard requires a data: URI.
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#111318"/>' +
  '<circle cx="12" cy="16" r="5" fill="none" stroke="#8b7bff" stroke-width="2.5"/>' +
  '<path d="M17 16h10M23 16v4M26 16v3" stroke="#8b7bff" stroke-width="2.5" stroke-linecap="round"/>' +
  '</svg>';

export const LOCAL_WALLET_ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(SVG)}`;

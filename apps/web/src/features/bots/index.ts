// The bots feature's public face: what other features may import.
export {
  failureMessage,
  formatAmountWithUnit,
  formatCount,
  formatPercent,
  formatSignedAmount,
  quoteOf,
  toneOf,
} from './bot-figures';

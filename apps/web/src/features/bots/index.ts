// The bots feature's public face: what other features may import.
export { failureMessage, quoteOf, toneOf } from './bot-figures';

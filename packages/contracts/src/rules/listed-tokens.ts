/**
 * Every token the product lists: the spec's identity map plus the other Solana tokens of the market
 * universe (trending, search, charts), each with its real mainnet mint and on-chain decimals. The
 * local cluster creates all of them at genesis, so whatever the product shows can be traded on the
 * embedded stack; the market simulator adds its market facts (price, supply, volume) to these.
 *
 * Pair resolution by symbol stays with the identity map ({@link getTokenBySymbol}); this list is
 * the wider set of what exists on chain.
 */
import { RISK_DEMO_TOKENS } from './risk-demo-tokens';
import { TOKEN_IDENTITIES, type TokenIdentity } from './token-identity';

/**
 * Listed tokens outside the identity map. Mints and decimals were checked against public token
 * lists (Jupiter's strict list, the issuers' own pages); pump.fun launches end in `pump`.
 */
const OTHER_LISTED_TOKENS: readonly TokenIdentity[] = [
  { symbol: 'JTO', name: 'Jito', mint: 'jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL', decimals: 9 },
  { symbol: 'PYTH', name: 'Pyth Network', mint: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3', decimals: 6 },
  { symbol: 'BOME', name: 'BOOK OF MEME', mint: 'ukHH6c7mMyiWCf1b9pnWe25TSpkDDt3H5pQZgZ74J82', decimals: 6 },
  { symbol: 'POPCAT', name: 'Popcat', mint: '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr', decimals: 9 },
  {
    symbol: 'MEW',
    name: 'cat in a dogs world',
    mint: 'MEW1gQWJ3nEXg2qgERiKu7FAFj79PHvQVREQUzScPP5',
    decimals: 5,
  },
  { symbol: 'W', name: 'Wormhole', mint: '85VBFQZC9TZkfaptBWjvUw7YbZjy52A6mjtPGjstQAmQ', decimals: 6 },
  { symbol: 'TNSR', name: 'Tensor', mint: 'TNSRxcUxoT9xBG3de7PiJyTDYu7kskLqcpddxnEJAS6', decimals: 9 },
  { symbol: 'RENDER', name: 'Render', mint: 'rndrizKT3MK1iimdxRdWabcF7Zg7AR5T4nud4EkHBof', decimals: 8 },
  { symbol: 'HNT', name: 'Helium', mint: 'hntyVP6YFm1Hg25TN9WGLqM12b8TQmcknKrdu1oxWux', decimals: 8 },
  {
    symbol: 'MOBILE',
    name: 'Helium Mobile',
    mint: 'mb1eu7TzEc71KxDpsmsKoucSSuuoGLv1drys1oP2jh6',
    decimals: 6,
  },
  { symbol: 'KMNO', name: 'Kamino', mint: 'KMNo3nJsBXfcpJTVhZcXLW7RmTwTt4GVFE7suUBo9sS', decimals: 6 },
  { symbol: 'DRIFT', name: 'Drift', mint: 'DriFtupJYLTosbwoN8koMbEYSx54aFAVLddWsbksjwg7', decimals: 6 },
  {
    symbol: 'mSOL',
    name: 'Marinade staked SOL',
    mint: 'mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So',
    decimals: 9,
  },
  {
    symbol: 'jitoSOL',
    name: 'Jito Staked SOL',
    mint: 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn',
    decimals: 9,
  },
  {
    symbol: 'bSOL',
    name: 'BlazeStake Staked SOL',
    mint: 'bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1',
    decimals: 9,
  },
  { symbol: 'INF', name: 'Infinity', mint: '5oVNBeEEQvYi1cX3ir8Dx5n1P7pdxydbGF2X4TxVusJm', decimals: 9 },
  { symbol: 'SAMO', name: 'Samoyedcoin', mint: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', decimals: 9 },
  { symbol: 'FIDA', name: 'Bonfida', mint: 'EchesyfXePKdLtoiZSL8pBe8Myagyy8ZRqsACNCFGnvp', decimals: 6 },
  { symbol: 'STEP', name: 'Step Finance', mint: 'StepAscQoEioFxxWGnh2sLBDFp9d8rvKz2Yp39iDpyT', decimals: 9 },
  { symbol: 'ZEUS', name: 'Zeus Network', mint: 'ZEUS1aR7aX8DFFJf5QjWj2ftDDdNTroMNGo8YoQm3Gq', decimals: 6 },
  {
    symbol: 'TRUMP',
    name: 'OFFICIAL TRUMP',
    mint: '6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN',
    decimals: 6,
  },
  { symbol: 'FARTCOIN', name: 'Fartcoin', mint: '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump', decimals: 6 },
  { symbol: 'GRASS', name: 'Grass', mint: 'Grass7B4RdKfBCjTKgSqnXkqjwiGvQyFbuSCUJr3XXjs', decimals: 9 },
  {
    symbol: 'PENGU',
    name: 'Pudgy Penguins',
    mint: '2zMMhcVQEXDtdE6vsFS7S7D5oUodfJHE8vd1gnBouauv',
    decimals: 6,
  },
  { symbol: 'AI16Z', name: 'ai16z', mint: 'HeLp6NuQkmYB4pYWo2zYs22mESHXPQYzXbB8n4V98jwC', decimals: 9 },
  {
    symbol: 'PNUT',
    name: 'Peanut the Squirrel',
    mint: '2qEHjDLDLbuBgRYvsxhc5D6uDWAivNFZGan56P1tpump',
    decimals: 6,
  },
  {
    symbol: 'GOAT',
    name: 'Goatseus Maximus',
    mint: 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump',
    decimals: 6,
  },
  { symbol: 'MOODENG', name: 'Moo Deng', mint: 'ED5nyyWEzpPPiWimP8vYm7sD7TD3LAt3Q3gRTWHzPJBY', decimals: 6 },
  {
    symbol: 'JLP',
    name: 'Jupiter Perps LP',
    mint: '27G8MtK7VtTcCHkpASjSDdkWWYfoqT6ggEuKidVJidD4',
    decimals: 6,
  },
  { symbol: 'WEN', name: 'Wen', mint: 'WENWENvqqNya429ubCdR81ZmD69brwQaaBYY6p3LCpk', decimals: 5 },
  { symbol: 'MYRO', name: 'Myro', mint: 'HhJpBhRRn4g56VsyLuT8DL5Bv31HkXqsrahTTUCZeZg4', decimals: 9 },
  { symbol: 'SLERF', name: 'SLERF', mint: '7BgBvyjrZX1YKz4oh9mjb8ZScatkkwb8DzFx7LoiVkM3', decimals: 9 },
  { symbol: 'NOS', name: 'Nosana', mint: 'nosXBVoaCTtYdLvKY6Csb4AC8JCdQKKAaWYtx2ZMoo7', decimals: 6 },
  { symbol: 'SHDW', name: 'Shadow Token', mint: 'SHDWyBxihqiCj6YekG2GUr7wqKLeLAMK1gHZck9pL6y', decimals: 9 },
  { symbol: 'GMT', name: 'STEPN', mint: '7i5KKsX2weiTkry7jA4ZwSuXGhs5eJBEjY8vVxR4pfRx', decimals: 9 },
];

/**
 * Every listed token, identity map first, the risk demonstration tokens last (risk-demo-tokens.ts). Symbols keep their own case (`jitoSOL`); symbols and
 * mints are unique.
 *
 * @example
 * LISTED_TOKENS.find((token) => token.symbol === 'GOAT')?.decimals; // 6
 */
export const LISTED_TOKENS: readonly TokenIdentity[] = [
  ...TOKEN_IDENTITIES,
  ...OTHER_LISTED_TOKENS,
  ...RISK_DEMO_TOKENS.map(({ symbol, name, mint, decimals }) => ({ symbol, name, mint, decimals })),
];

const LISTED_BY_SYMBOL = new Map(LISTED_TOKENS.map((token) => [token.symbol.toUpperCase(), token]));
const LISTED_BY_MINT = new Map(LISTED_TOKENS.map((token) => [token.mint, token]));

/**
 * A listed token by its exact mint or its symbol (case-insensitive).
 *
 * @example
 * getListedToken('goat')?.mint; // 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump'
 */
export function getListedToken(symbolOrMint: string): TokenIdentity | undefined {
  const text = symbolOrMint.trim();
  return LISTED_BY_MINT.get(text) ?? LISTED_BY_SYMBOL.get(text.toUpperCase());
}

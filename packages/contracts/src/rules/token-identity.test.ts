import { describe, it, expect } from 'vitest';
import {
  DEFAULT_TOKEN_DECIMALS,
  getToken,
  getTokenByMint,
  getTokenBySymbol,
  getTokenDecimals,
  isEvmAddress,
  isMintAddress,
  isSolanaAddress,
  isStablecoin,
  STABLECOIN_SYMBOLS,
  TOKEN_IDENTITIES,
  UNVERIFIED_IDENTITY_SYMBOLS,
  USDC_MINT,
  WRAPPED_SOL_MINT,
} from './token-identity';

describe('TOKEN_IDENTITIES', () => {
  it('holds every verified symbol of the spec map exactly once', () => {
    const symbols = TOKEN_IDENTITIES.map((token) => token.symbol);
    const spec = [
      'SOL',
      'USDC',
      'USDT',
      'BONK',
      'WIF',
      'PEPE',
      'DOGE',
      'SHIB',
      'GIVE',
      'BTC',
      'ETH',
      'WETH',
      'RAY',
      'JUP',
      'ORCA',
      'SRM',
      'DAI',
    ];
    expect(new Set(symbols).size).toBe(symbols.length);
    expect([...symbols, ...UNVERIFIED_IDENTITY_SYMBOLS].sort()).toEqual([...spec].sort());
  });

  it('has unique mints that are all valid Solana addresses', () => {
    const mints = TOKEN_IDENTITIES.map((token) => token.mint);
    expect(new Set(mints).size).toBe(mints.length);
    for (const mint of mints) expect(isSolanaAddress(mint), mint).toBe(true);
  });

  it.each([
    ['SOL', 'So11111111111111111111111111111111111111112', 9],
    ['USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6],
    ['USDT', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 6],
    ['BONK', 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', 5],
    ['WIF', 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm', 6],
    ['PEPE', 'F9CpWoyeBJfoRB8f2pBe2ZNPbPsEE76mWZWme3StsvHK', 6],
    ['SHIB', 'CiKu4eHsVrc1eueVQeHn7qhXTcVu95gSQmBpX4utjL9z', 8],
    ['BTC', '3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh', 8],
    ['ETH', '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs', 8],
    ['WETH', '2FPyTwcZLUg1MDrwsyoP4D6s1tM7hAkHYRjkNb5w6Pxk', 6],
    ['RAY', '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R', 6],
    ['JUP', 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', 6],
    ['ORCA', 'orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE', 6],
    ['SRM', 'SRMuApVNdxXokk5GT7XD5cUUgXMBCoAz2LHeuAoKWRt', 6],
    ['DAI', 'EjmyN6qEC1Tf1JxiG1ae7UTJhUxSwk1TCWNWqxWV4J6o', 8],
  ] as const)('%s is %s with %i decimals', (symbol, mint, decimals) => {
    expect(getTokenBySymbol(symbol)).toMatchObject({ symbol, mint, decimals });
    expect(getTokenByMint(mint)?.symbol).toBe(symbol);
    expect(getTokenDecimals(symbol)).toBe(decimals);
    expect(getTokenDecimals(mint)).toBe(decimals);
  });
});

describe('getTokenBySymbol / getTokenByMint / getToken', () => {
  it('matches symbols case-insensitively and trims', () => {
    expect(getTokenBySymbol('Bonk')?.symbol).toBe('BONK');
    expect(getTokenBySymbol(' usdc ')?.mint).toBe(USDC_MINT);
  });

  it('accepts the WSOL and WBTC aliases', () => {
    expect(getTokenBySymbol('wsol')?.mint).toBe(WRAPPED_SOL_MINT);
    expect(getTokenBySymbol('WBTC')?.symbol).toBe('BTC');
  });

  it('matches mints exactly (base58 is case-sensitive)', () => {
    expect(getTokenByMint(USDC_MINT.toLowerCase())).toBeUndefined();
    expect(getTokenByMint('unknown')).toBeUndefined();
  });

  it('resolves either form', () => {
    expect(getToken(WRAPPED_SOL_MINT)?.symbol).toBe('SOL');
    expect(getToken('sol')?.mint).toBe(WRAPPED_SOL_MINT);
    expect(getToken('DOGE')).toBeUndefined();
  });
});

describe('getTokenDecimals fallback table', () => {
  it.each([
    ['USD', 6],
    ['DOGE', DEFAULT_TOKEN_DECIMALS],
    ['GIVE', 6],
    ['XYZ', 6],
    ['', 6],
    ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', 6],
  ] as const)('%s → %i', (symbolOrMint, decimals) => {
    expect(getTokenDecimals(symbolOrMint)).toBe(decimals);
  });
});

describe('isStablecoin', () => {
  it.each([
    ['USD', true],
    ['usdc', true],
    ['USDT', true],
    [USDC_MINT, true],
    ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', true],
    ['DAI', false], // the spec's stablecoin quotes are USD, USDC and USDT only
    ['SOL', false],
    [WRAPPED_SOL_MINT, false],
  ] as const)('%s → %s', (quote, expected) => {
    expect(isStablecoin(quote)).toBe(expected);
  });

  it('STABLECOIN_SYMBOLS is USD, USDC, USDT', () => {
    expect(STABLECOIN_SYMBOLS).toEqual(['USD', 'USDC', 'USDT']);
  });
});

describe('address recognisers', () => {
  it.each([
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', true, true], // 44
    ['So11111111111111111111111111111111111111112', true, false], // 43: valid address, not the spec's 44
    ['JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', true, false],
    ['11111111111111111111111111111111', true, false], // 32: the system program
    ['1111111111111111111111111111111', false, false], // 31
    ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', false, false], // 44 chars but more than 32 bytes
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', false, false], // '0' is not base58
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtIl', false, false], // 'I' and 'l' are not base58
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vX', false, false], // 45
    ['USDC', false, false],
    ['', false, false],
  ] as const)('%s: isSolanaAddress %s, isMintAddress %s', (text, solana, mint) => {
    expect(isSolanaAddress(text)).toBe(solana);
    expect(isMintAddress(text)).toBe(mint);
  });

  it.each([
    ['0x52908400098527886E0F7030069857D2E4169EE7', true],
    ['0x52908400098527886e0f7030069857d2e4169ee7', true],
    ['0x52908400098527886E0F7030069857D2E4169EE', false], // 39 hex
    ['0x52908400098527886E0F7030069857D2E4169EE77', false], // 41 hex
    ['52908400098527886E0F7030069857D2E4169EE7', false], // no 0x
    ['0x52908400098527886E0F7030069857D2E4169EEG', false], // G
    [' 0x52908400098527886E0F7030069857D2E4169EE7', false],
    ['', false],
  ] as const)('isEvmAddress(%j) = %s', (text, expected) => {
    expect(isEvmAddress(text)).toBe(expected);
  });
});

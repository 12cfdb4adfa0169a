import { describe, expect, it } from 'vitest';
import { getExplorerTxUrl } from './explorer';

describe('explorer links', () => {
  it('point at the network the server runs on', () => {
    expect(getExplorerTxUrl('sig', 'mainnet', 'https://app')).toBe('https://explorer.solana.com/tx/sig');
    expect(getExplorerTxUrl('sig', 'devnet', 'https://app')).toBe(
      'https://explorer.solana.com/tx/sig?cluster=devnet',
    );
    expect(getExplorerTxUrl('sig', 'localnet', 'http://localhost:8080')).toBe(
      'https://explorer.solana.com/tx/sig?cluster=custom&customUrl=http%3A%2F%2Flocalhost%3A8080%2Frpc',
    );
  });
});

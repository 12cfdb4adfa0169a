import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTestQueryClient, stubFetch } from '../../test/test-utils';
import { NetworkBadge } from './network-badge';
import { useNetwork } from './use-network';

function Probe() {
  const { network, isTestNetwork } = useNetwork();
  return (
    <p>
      {network}:{String(isTestNetwork)}
    </p>
  );
}

function renderWithQuery(ui: ReactElement) {
  return render(<QueryClientProvider client={createTestQueryClient()}>{ui}</QueryClientProvider>);
}

afterEach(() => vi.unstubAllGlobals());

describe('useNetwork', () => {
  it('is mainnet until health answers, then the reported network', async () => {
    stubFetch({ 'GET /health': { body: { success: true, data: { status: 'ok', network: 'localnet' } } } });
    renderWithQuery(<Probe />);
    expect(screen.getByText('mainnet:false')).toBeInTheDocument();
    expect(await screen.findByText('localnet:true')).toBeInTheDocument();
  });

  it('stays mainnet when health is not JSON', async () => {
    const fetchMock = vi.fn(async () => new Response('<!doctype html><html></html>', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithQuery(<Probe />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByText('mainnet:false')).toBeInTheDocument();
  });

  it('the badge shows TESTNET on testnet and nothing on mainnet', async () => {
    stubFetch({ 'GET /health': { body: { success: true, data: { status: 'ok', network: 'testnet' } } } });
    const { container } = renderWithQuery(<NetworkBadge />);
    expect(container).toBeEmptyDOMElement();
    expect(await screen.findByText('TESTNET')).toBeInTheDocument();
  });
});

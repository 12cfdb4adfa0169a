import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_BOT_CONFIG, type TBot } from '@solterm/contracts';
import { renderWithProviders, stubFetch } from '../../../test/test-utils';
import { WalletProvider } from '../../wallet/wallet-provider';
import { BotCard } from './bot-card';
import { CreateBotForm } from './create-bot-form';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ notify: toast }));

const NO_METRICS = {
  total_trades: 0,
  total_pnl: 0,
  win_rate: 0,
  current_balance: 0,
  daily_pnl: 0,
  weekly_pnl: 0,
  monthly_pnl: 0,
  max_drawdown: 0,
  sharpe_ratio: 0,
  last_trade_time: null,
  started_at: null,
  estimated_completion: null,
  current_task: null,
  progress_percentage: 0,
};

function makeBot(overrides: Partial<TBot> = {}): TBot {
  return {
    bot_id: '11111111-1111-4111-8111-111111111111',
    bot_name: 'Dip buyer',
    strategy_type: 'sma_crossover',
    status: 'stopped',
    is_running: false,
    network_mode: 'test',
    ...NO_METRICS,
    description: 'Buys the dip',
    is_public: false,
    config: { ...DEFAULT_BOT_CONFIG, interval: '1H', language: 'javascript', run_hours: 24 },
    created_at: '2026-01-01T00:00:00.000Z',
    user_count: 0,
    copied_from: null,
    copied_from_label: null,
    ...overrides,
  } as TBot;
}

const health = { body: { success: true, data: { status: 'ok', network: 'localnet' } } };

beforeEach(() => Object.values(toast).forEach((fn) => fn.mockClear()));
afterEach(() => vi.unstubAllGlobals());

describe('a bot card', () => {
  it('offers Edit on a stopped bot only, and writes its figures with units and separators', async () => {
    stubFetch({ 'GET /health': health });
    const onEdit = vi.fn();
    const stopped = makeBot({ total_trades: 256335, total_pnl: 1234.567, current_balance: 2234.5 });
    const { rerender } = renderWithProviders(
      <WalletProvider>
        <BotCard bot={stopped} onEdit={onEdit} />
      </WalletProvider>,
    );
    expect(screen.getByText('256,335')).toBeInTheDocument();
    expect(screen.getByText('+1,234.57 USDC')).toBeInTheDocument();
    expect(screen.getByText('2,234.50 USDC')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Edit/ }));
    expect(onEdit).toHaveBeenCalledWith(stopped);

    rerender(
      <WalletProvider>
        <BotCard bot={makeBot({ status: 'running', is_running: true })} onEdit={onEdit} />
      </WalletProvider>,
    );
    expect(screen.getByRole('button', { name: /Edit/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Edit/ })).toHaveAttribute(
      'title',
      expect.stringMatching(/^Stop the bot to edit it/),
    );
  });

  it('says Completed once its run has had its time, names the network and its origin', async () => {
    stubFetch({ 'GET /health': health });
    renderWithProviders(
      <WalletProvider>
        <BotCard
          bot={makeBot({
            network_mode: 'mainnet',
            started_at: '2026-01-01T00:00:00.000Z',
            estimated_completion: '2026-01-01T01:00:00.000Z',
            progress_percentage: 100,
            total_pnl: -0.001,
            copied_from: '22222222-2222-4222-8222-222222222222',
            copied_from_label: 'Trend Rider by quant',
          })}
        />
      </WalletProvider>,
    );
    expect(screen.getByTestId('bot-time-remaining')).toHaveTextContent('Completed');
    // PnL -0.001 rounds to zero: unsigned, neutral (balance 0.00 USDC too).
    expect(screen.getAllByText('0.00 USDC')).toHaveLength(2);
    expect(screen.queryByText(/-0.00/)).toBeNull();
    expect(screen.getByTestId('bot-origin')).toHaveTextContent('Copied from Trend Rider by quant');
    expect(await screen.findByText('Localnet')).toBeInTheDocument();
    expect(screen.queryByText('Mainnet')).toBeNull();
  });

  it('toasts the spec’s "Failed to start bot" with the server’s reason after it', async () => {
    stubFetch({
      'GET /health': health,
      'POST /bots/11111111-1111-4111-8111-111111111111/start': {
        status: 409,
        body: { success: false, error: 'You can run at most 5 bots at once.', code: 'BOTS__RUNNING_LIMIT' },
      },
    });
    renderWithProviders(
      <WalletProvider>
        <BotCard bot={makeBot()} />
      </WalletProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: /Start/ }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to start bot: You can run at most 5 bots at once.'),
    );
  });
});

describe('the bot form, editing', () => {
  it('opens prefilled with the bot, saves it with PATCH, and shows the server’s refusal at save', async () => {
    const bot = makeBot({
      strategy_type: 'trend',
      config: { ...makeBot().config, code: 'function onCandle() { return null; }', symbol: 'SOL/USDC' },
    });
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: {
        success: false,
        code: 'BOTS__PAIR_INVALID',
        error: 'Pair FOO/BAR cannot be traded: Token not found: FOO. Use a pair such as SOL/USDC.',
      },
    };
    const fetchMock = stubFetch({
      'GET /health': health,
      'GET /bots/strategies': { body: { success: true, data: [] } },
      'PATCH /bots/11111111-1111-4111-8111-111111111111': () => answer,
    });
    const onEditDone = vi.fn();
    renderWithProviders(<CreateBotForm onTested={vi.fn()} editing={bot} onEditDone={onEditDone} />);
    expect(screen.getByText('Edit "Dip buyer"')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Dip buyer');
    expect(screen.getByLabelText('Category')).toHaveValue('trend');
    const pair = screen.getByLabelText('Pair');
    await userEvent.clear(pair);
    await userEvent.type(pair, 'FOO/BAR');
    await userEvent.click(screen.getByRole('button', { name: /Save changes/ }));
    expect(await screen.findByLabelText('Bot form error')).toHaveTextContent(
      'Pair FOO/BAR cannot be traded: Token not found: FOO. Use a pair such as SOL/USDC.',
    );
    expect(toast.error).toHaveBeenCalledWith(
      'Failed to save bot: Pair FOO/BAR cannot be traded: Token not found: FOO. Use a pair such as SOL/USDC.',
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch[1]!.body))).toMatchObject({
      name: 'Dip buyer',
      strategy_type: 'trend',
      config: { code: 'function onCandle() { return null; }', symbol: 'FOO/BAR', run_hours: 24 },
    });
    expect(onEditDone).not.toHaveBeenCalled();

    answer = { status: 200, body: { success: true, data: { ...bot, bot_name: 'Dip buyer' } } };
    await userEvent.clear(pair);
    await userEvent.type(pair, 'SOL/USDC');
    await userEvent.click(screen.getByRole('button', { name: /Save changes/ }));
    await waitFor(() => expect(onEditDone).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Bot "Dip buyer" saved');
  });

  it('Run and Test shows its elapsed time, and Cancel stops it on the server by its test_id', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string | URL | Request, init?: RequestInit) => {
        const url = String(input);
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : null });
        const json = (data: unknown) =>
          new Response(JSON.stringify({ success: true, data }), {
            headers: { 'Content-Type': 'application/json' },
          });
        if (url.endsWith('/bots/test')) {
          // A long run: it answers only when aborted.
          return new Promise<Response>((_, reject) =>
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          );
        }
        if (url.includes('/bots/test/')) return Promise.resolve(json({ cancelled: true }));
        if (url.endsWith('/health')) return Promise.resolve(json({ status: 'ok', network: 'localnet' }));
        return Promise.resolve(json([]));
      }),
    );
    renderWithProviders(<CreateBotForm onTested={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: /Run and Test Bot/ }));
    expect(await screen.findByText(/Testing over the last 30 days…/)).toHaveTextContent(/\d+ s/);
    await userEvent.click(screen.getByRole('button', { name: /Cancel test/ }));
    await waitFor(() => expect(calls.some((call) => call.url.includes('/cancel'))).toBe(true));
    const started = calls.find((call) => call.url.endsWith('/bots/test'))!;
    const testId = (started.body as { test_id: string }).test_id;
    expect(testId).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls.find((call) => call.url.includes('/cancel'))!.url).toContain(`/bots/test/${testId}/cancel`);
    expect(screen.queryByText(/Testing over the last 30 days…/)).toBeNull();
    expect(toast.info).toHaveBeenCalledWith('Test cancelled');
    expect(toast.error).not.toHaveBeenCalled();
  });
});

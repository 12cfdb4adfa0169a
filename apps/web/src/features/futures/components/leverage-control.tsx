import { useState } from 'react';
import type { TFuturesAccount, TFuturesPair } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { leveragePresets, leverageSettingOf } from '../futures-order-model';
import { useSetFuturesLeverage } from '../use-futures';

/**
 * The account's leverage in the market, as on Hyperliquid: picking a value (slider or preset) and
 * pressing Set is its own action, which the venue refuses when the position and open orders could
 * not be margined at it. Orders are placed at the setting and never change it.
 */
export function LeverageControl({
  pair,
  account,
  canSet,
}: {
  pair: TFuturesPair | undefined;
  account: TFuturesAccount | undefined;
  /** A wallet is connected and the account initialized. */
  canSet: boolean;
}) {
  const maxLeverage = pair?.max_leverage ?? 100;
  const setting = pair ? leverageSettingOf(account, pair) : { leverage: 10, inUse: false };
  /** The value picked, with the market it was picked for; null shows the setting. */
  const [draft, setDraft] = useState<{ symbol: string; leverage: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useSetFuturesLeverage();
  const picked = draft && draft.symbol === pair?.symbol ? Math.min(draft.leverage, maxLeverage) : null;
  const shown = picked ?? setting.leverage;
  const changed = picked !== null && picked !== setting.leverage;

  function pick(leverage: number) {
    setError(null);
    if (pair) setDraft({ symbol: pair.symbol, leverage });
  }

  async function apply() {
    if (!pair || picked === null) return;
    setError(null);
    try {
      const result = await save.mutateAsync({ symbol: pair.symbol, leverage: picked });
      notify.success(`${pair.symbol} leverage set to ${result.leverage}x`);
      setDraft(null);
    } catch (caught) {
      setError(getErrorMessage(caught, 'the venue refused the leverage'));
    }
  }

  return (
    <div data-testid="leverage-control" data-leverage={setting.leverage}>
      <div className="mb-1 flex items-center justify-between gap-2 text-xs">
        <label htmlFor="futures-leverage" className="text-muted">
          Leverage{' '}
          <span className="text-faint">
            · your {pair?.symbol ?? 'market'} setting {setting.leverage}x
          </span>
        </label>
        <span className={cn('num font-semibold', changed ? 'text-accent' : 'text-fg')}>{shown}x</span>
      </div>
      <input
        id="futures-leverage"
        type="range"
        min={1}
        max={maxLeverage}
        step={1}
        value={shown}
        onChange={(event) => pick(Number(event.target.value))}
        className="w-full accent-[var(--color-accent)]"
      />
      <div className="mt-1.5 flex flex-wrap gap-1" role="group" aria-label="Leverage presets">
        {leveragePresets(maxLeverage).map((preset) => (
          <button
            key={preset}
            type="button"
            onClick={() => pick(preset)}
            aria-pressed={preset === shown}
            className={cn(
              'num rounded border px-1.5 py-0.5 text-[11px]',
              preset === shown
                ? 'border-accent bg-accent-soft text-accent'
                : 'border-line text-muted hover:text-fg',
            )}
          >
            {preset}x
          </button>
        ))}
      </div>
      {changed && (
        <div className="mt-2 flex items-center gap-2">
          <Button size="xs" onClick={() => void apply()} isLoading={save.isPending} disabled={!canSet}>
            Set {pair?.symbol} to {picked}x
          </Button>
          <Button size="xs" variant="ghost" onClick={() => setDraft(null)}>
            Keep {setting.leverage}x
          </Button>
        </div>
      )}
      <p className="mt-1.5 text-[11px] leading-snug text-faint">
        {setting.inUse
          ? `Your ${pair?.symbol ?? ''} position and orders are margined at ${setting.leverage}x. Orders never change it.`
          : 'Orders are placed at this setting; changing it is its own step.'}
        {changed && !canSet && ' Initialize your futures account to set it.'}
      </p>
      {error && (
        <Notice tone="error" className="mt-2">
          {error}
        </Notice>
      )}
    </div>
  );
}

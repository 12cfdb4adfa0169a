import { useState } from 'react';
import { Wallet } from 'lucide-react';
import { BOT_MESSAGES, BOT_WITHDRAW_MIN_SOL, mapBotWithdrawError } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { withdrawError } from '../bot-funds-model';
import { useBotBalance, useWithdrawFromBot } from '../use-bots';

/** Withdraw from Bot (part 2 §5): SOL from the bot key back to the connected wallet. */
export function WithdrawModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const balance = useBotBalance(isOpen);
  const withdraw = useWithdrawFromBot();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const held = balance.data?.balance ?? 0;
  const invalid = amount.trim() === '' ? null : withdrawError(amount, held);

  async function onWithdraw() {
    setError(null);
    const problem = withdrawError(amount, held);
    if (problem) {
      setError(problem);
      return;
    }
    try {
      const result = await withdraw.mutateAsync(Number(amount));
      notify.success(`Withdrew ${result.amount} SOL to your wallet`);
      setAmount('');
      onClose();
    } catch (caught) {
      // The server's own rule messages (BOT__*) are the spec's texts; chain failures are mapped.
      const message = getErrorMessage(caught, BOT_MESSAGES.withdrawFailed);
      setError(
        caught instanceof ApiError && caught.code?.startsWith('BOT__')
          ? message
          : mapBotWithdrawError(message),
      );
    }
  }

  return (
    <Modal
      title="Withdraw from Bot"
      description="SOL goes back to your connected wallet, the only destination there is."
      isOpen={isOpen}
      isLocked={withdraw.isPending}
      onClose={onClose}
    >
      <div className="grid gap-3">
        {balance.isPending ? (
          <Skeleton className="h-14" />
        ) : balance.isError ? (
          <Notice tone="error">{getErrorMessage(balance.error, BOT_MESSAGES.balanceFailed)}</Notice>
        ) : (
          <dl className="grid grid-cols-3 gap-2 rounded-md border border-line bg-raised/40 p-3 text-xs">
            <div className="min-w-0">
              <dt className="text-[11px] text-faint">Bot balance</dt>
              <dd className="num truncate text-fg">{held.toFixed(6)} SOL</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-[11px] text-faint">Withdrawable</dt>
              <dd className="num truncate text-fg">{balance.data.withdrawable.toFixed(6)} SOL</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-[11px] text-faint">Allowance left</dt>
              <dd className="num truncate text-fg">{balance.data.allowance.toFixed(4)} SOL</dd>
            </div>
            {balance.data.tokens.length > 0 && (
              <div className="col-span-3 min-w-0">
                <dt className="text-[11px] text-faint">Also held</dt>
                <dd className="num truncate text-fg">
                  {balance.data.tokens
                    .map((token) => `${token.amount} ${token.symbol ?? token.mint.slice(0, 4)}`)
                    .join(' · ')}
                </dd>
              </div>
            )}
          </dl>
        )}
        {balance.data && held <= 0 && <Notice tone="warn">{BOT_MESSAGES.noBalanceToWithdraw}</Notice>}
        <Input
          label="Amount (SOL)"
          type="number"
          inputMode="decimal"
          min={BOT_WITHDRAW_MIN_SOL}
          step="any"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={invalid ?? undefined}
          trailing={
            <button
              type="button"
              className="text-xs text-accent hover:underline"
              onClick={() => setAmount(String(balance.data?.withdrawable ?? 0))}
            >
              Max
            </button>
          }
        />
        {error && <Notice tone="error">{error}</Notice>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={onClose} disabled={withdraw.isPending}>
            Cancel
          </Button>
          <Button
            size="sm"
            onClick={() => void onWithdraw()}
            isLoading={withdraw.isPending}
            disabled={held <= 0}
          >
            <Wallet className="size-3.5" /> Withdraw
          </Button>
        </div>
      </div>
    </Modal>
  );
}

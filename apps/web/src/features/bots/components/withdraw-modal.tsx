import { useState } from 'react';
import { Wallet } from 'lucide-react';
import { BOT_MESSAGES, BOT_WITHDRAW_MIN_SOL, WRAPPED_SOL_MINT, type TBotBalance } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { followPendingTransaction, isPendingTransaction } from '../../../lib/server-transaction';
import { notify } from '../../../lib/toast';
import { botWithdrawFailureText, tokenWithdrawError, withdrawError } from '../bot-funds-model';
import { useBotBalance, useWithdrawFromBot } from '../use-bots';
import { formatFixed } from '../../../lib/format';

/** What the bot holds, what can be withdrawn, and the allowance left. */
function BotHoldings({
  balance,
  held,
  maxAmount,
  symbol,
}: {
  balance: TBotBalance;
  held: number;
  maxAmount: number;
  symbol: string;
}) {
  return (
    <dl className="grid grid-cols-3 gap-2 rounded-md border border-line bg-raised/40 p-3 text-xs">
      <div className="min-w-0">
        <dt className="text-[11px] text-faint">Bot balance</dt>
        <dd className="num truncate text-fg" data-testid="withdraw-held">
          {formatFixed(held, 6)} {symbol}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-[11px] text-faint">Withdrawable</dt>
        <dd className="num truncate text-fg">
          {formatFixed(maxAmount, 6)} {symbol}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-[11px] text-faint">Allowance left</dt>
        <dd className="num truncate text-fg">{formatFixed(balance.allowance, 4)} SOL</dd>
      </div>
      {balance.tokens.length > 0 && (
        <div className="col-span-3 min-w-0">
          <dt className="text-[11px] text-faint">Also held</dt>
          <dd className="num truncate text-fg">
            {balance.tokens
              .map((token) => `${token.amount} ${token.symbol ?? token.mint.slice(0, 4)}`)
              .join(' · ')}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** Withdraw from Bot (part 2 §5): SOL from the bot key back to the connected wallet. */
export function WithdrawModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const balance = useBotBalance(isOpen);
  const withdraw = useWithdrawFromBot();
  const [amount, setAmount] = useState('');
  const [mint, setMint] = useState<string>(WRAPPED_SOL_MINT);
  /** The server's refusal (the form's own rule breaks show under the amount, once). */
  const [error, setError] = useState<string | null>(null);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const token = balance.data?.tokens.find((row) => row.mint === mint);
  const isSol = mint === WRAPPED_SOL_MINT || !token;
  const symbol = isSol ? 'SOL' : (token.symbol ?? mint.slice(0, 4));
  const held = isSol ? (balance.data?.balance ?? 0) : token.amount;
  const maxAmount = isSol ? (balance.data?.withdrawable ?? 0) : token.amount;
  const problemOf = (text: string) =>
    isSol ? withdrawError(text, held) : tokenWithdrawError(text, held, symbol);
  const invalid = amount.trim() === '' && !isSubmitted ? null : problemOf(amount);

  async function onWithdraw() {
    setError(null);
    setIsSubmitted(true);
    if (problemOf(amount)) return;
    try {
      const result = await withdraw.mutateAsync({
        amount: Number(amount),
        tokenMint: isSol ? undefined : mint,
      });
      if (isPendingTransaction(result)) {
        followPendingTransaction(result, 'Withdrawal', () => void balance.refetch());
      } else notify.success(`Withdrew ${result.amount} ${symbol} to your wallet`);
      setAmount('');
      setIsSubmitted(false);
      onClose();
    } catch (caught) {
      const message = getErrorMessage(caught, BOT_MESSAGES.withdrawFailed);
      setError(botWithdrawFailureText(caught instanceof ApiError ? caught.code : undefined, message));
    }
  }

  return (
    <Modal
      title="Withdraw from Bot"
      description="SOL or tokens the bot holds go back to your connected wallet, the only destination there is."
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
          <BotHoldings balance={balance.data} held={held} maxAmount={maxAmount} symbol={symbol} />
        )}
        {balance.data && isSol && held <= 0 && (
          <Notice tone="warn">{BOT_MESSAGES.noBalanceToWithdraw}</Notice>
        )}
        {balance.data && balance.data.tokens.length > 0 && (
          <Select
            label="Token"
            value={isSol ? WRAPPED_SOL_MINT : mint}
            onChange={(event) => {
              setMint(event.target.value);
              setAmount('');
              setIsSubmitted(false);
              setError(null);
            }}
            options={[
              { value: WRAPPED_SOL_MINT, label: 'SOL' },
              ...balance.data.tokens.map((row) => ({ value: row.mint, label: row.symbol ?? row.mint })),
            ]}
          />
        )}
        <Input
          label={`Amount (${symbol})`}
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
              onClick={() => setAmount(String(maxAmount))}
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

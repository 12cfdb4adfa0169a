import { useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine, Landmark } from 'lucide-react';
import { FUTURES_MESSAGES, VALIDATION_MESSAGES, type TFuturesAccount } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { followPendingTransaction, isPendingTransaction } from '../../../lib/server-transaction';
import { notify } from '../../../lib/toast';
import { validateDeposit } from '../futures-order-model';
import { formatFixed, formatSignedUsd, getToneClass } from '../../../lib/format';
import { useCollateral } from '../use-futures';

type Action = 'initialize' | 'deposit' | 'withdraw';

const TITLES: Record<Action, string> = {
  initialize: 'Initialize Account',
  deposit: 'Deposit USDC',
  withdraw: 'Withdraw USDC',
};

function Figure({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] text-faint">{label}</dt>
      <dd className={cn('num truncate text-sm text-fg', className)}>{value}</dd>
    </div>
  );
}

/** The account's collateral, equity, PnL, margins, leverage and transfers in flight. */
function AccountFigures({ account }: { account: TFuturesAccount }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4 xl:grid-cols-8">
      <Figure label="Collateral" value={`${formatFixed(account.collateral, 2)}`} />
      <Figure label="Equity" value={`${formatFixed(account.equity, 2)}`} />
      <Figure
        label="Unrealized PnL"
        value={formatSignedUsd(account.unrealized_pnl)}
        className={getToneClass(account.unrealized_pnl)}
      />
      <Figure label="Free collateral" value={`${formatFixed(account.free_collateral, 2)}`} />
      <Figure label="Initial margin" value={`${formatFixed(account.initial_margin, 2)}`} />
      <Figure label="Maint. margin" value={`${formatFixed(account.maintenance_margin, 2)}`} />
      <Figure label="Account leverage" value={`${account.leverage}x`} />
      <Figure
        label="In flight"
        value={
          account.pending_transfers.length > 0 ? `${account.pending_transfers.length} transfer(s)` : 'none'
        }
      />
    </dl>
  );
}

/** Futures balance (part 2 §2): collateral held on chain in the venue's vault, with its actions. */
export function CollateralPanel({
  account,
  isLoading,
  isWalletConnected,
  className,
}: {
  account: TFuturesAccount | undefined;
  isLoading: boolean;
  isWalletConnected: boolean;
  className?: string;
}) {
  const [action, setAction] = useState<Action | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const collateral = useCollateral();
  const busy = collateral.stage !== 'idle';
  const initialized = account?.initialized ?? false;

  function open(next: Action) {
    setAction(next);
    setAmount(next === 'initialize' ? '100' : '');
    setError(null);
  }

  async function confirm() {
    if (!action) return;
    setError(null);
    if (action === 'withdraw') {
      const value = Number(amount);
      if (!Number.isFinite(value) || value <= 0) {
        setError('Withdraw amount must be greater than 0');
        return;
      }
    } else {
      const problem = validateDeposit(amount, action === 'initialize');
      if (problem) {
        setError(problem);
        return;
      }
    }
    try {
      if (action === 'withdraw') {
        const result = await collateral.withdraw(amount.trim());
        if (isPendingTransaction(result)) followPendingTransaction(result, 'Withdrawal');
        else notify.success(`Withdrew ${formatFixed(result.amount, 2)} USDC to your wallet`);
      } else {
        const result = await collateral.deposit(amount.trim(), action === 'initialize');
        notify.success(`Deposited ${formatFixed(result.amount, 2)} USDC into your futures account`);
      }
      setAction(null);
    } catch (caught) {
      setError(
        getErrorMessage(
          caught,
          action === 'withdraw' ? 'Withdrawal failed' : VALIDATION_MESSAGES.invalidDepositAmount,
        ),
      );
    }
  }

  return (
    <Card className={cn('min-w-0', className)} aria-label="Futures balance">
      <CardHeader
        title="Futures Balance"
        icon={<Landmark className="size-4" />}
        description="USDC collateral, held on chain in the venue's vault"
        actions={
          isWalletConnected &&
          account &&
          (initialized ? (
            <>
              <Button size="xs" variant="secondary" onClick={() => open('deposit')}>
                <ArrowDownToLine className="size-3.5" /> Deposit
              </Button>
              <Button size="xs" variant="ghost" onClick={() => open('withdraw')}>
                <ArrowUpFromLine className="size-3.5" /> Withdraw
              </Button>
            </>
          ) : (
            <Button size="xs" onClick={() => open('initialize')}>
              Initialize Account
            </Button>
          ))
        }
      />
      <div className="px-4 py-3">
        {!isWalletConnected ? (
          <Notice tone="info">{FUTURES_MESSAGES.connectWallet}</Notice>
        ) : isLoading || !account ? (
          <Skeleton className="h-12" />
        ) : !initialized ? (
          <p className="text-xs text-muted">
            No futures account yet. Initialize it with a first deposit of at least 1 USDC: your wallet signs a
            USDC transfer into the vault, credited when it lands on chain.
          </p>
        ) : (
          <AccountFigures account={account} />
        )}
      </div>
      <Modal
        title={action ? TITLES[action] : ''}
        description={
          action === 'withdraw'
            ? 'The vault sends USDC to your connected wallet, the only destination there is.'
            : 'Your wallet signs a USDC transfer into the futures vault; it is credited when it lands on chain.'
        }
        isOpen={action !== null}
        isLocked={busy}
        onClose={() => setAction(null)}
      >
        <div className="grid gap-3">
          <Input
            label="Amount (USDC)"
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            hint={
              action === 'initialize'
                ? 'Minimum 1 USDC'
                : action === 'deposit'
                  ? 'Minimum 0.1 USDC'
                  : account
                    ? `Free collateral ${formatFixed(account.free_collateral, 2)} USDC`
                    : undefined
            }
          />
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={() => setAction(null)} disabled={busy}>
              Cancel
            </Button>
            <Button size="sm" onClick={() => void confirm()} isLoading={busy}>
              {collateral.stage === 'signing'
                ? 'Sign in your wallet…'
                : collateral.stage === 'sending'
                  ? 'Sending…'
                  : action
                    ? TITLES[action]
                    : ''}
            </Button>
          </div>
        </div>
      </Modal>
    </Card>
  );
}

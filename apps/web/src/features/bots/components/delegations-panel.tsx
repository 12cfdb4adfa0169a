import { useState } from 'react';
import { KeyRound, Wallet } from 'lucide-react';
import { BOT_MESSAGES } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useBotBalance, useDelegations } from '../use-bots';
import { useDelegationFlow } from '../use-delegation-flow';
import { BotPermissions } from './bot-permissions';
import { WithdrawModal } from './withdraw-modal';
import { formatFixed } from '../../../lib/format';

const STATUS_TONE = { active: 'up', pending: 'neutral', replaced: 'neutral', revoked: 'down' } as const;

/** The bot key's funds and the user's delegations, with Revoke (an SPL revoke signed in the wallet). */
export function DelegationsPanel() {
  const balance = useBotBalance();
  const delegations = useDelegations();
  const flow = useDelegationFlow();
  const [revoking, setRevoking] = useState<string | null>(null);
  const [isWithdrawing, setIsWithdrawing] = useState(false);
  const shown = (delegations.data ?? []).filter((row) => row.status !== 'pending');

  async function onRevoke(id: string, unwrap: boolean) {
    setRevoking(`${id}:${unwrap}`);
    try {
      await flow.revoke(id, unwrap);
      notify.success(
        unwrap
          ? 'Delegation revoked and your wrapped SOL unwrapped: your bot can draw nothing more'
          : 'Delegation revoked: your bot can draw nothing more',
      );
    } catch (caught) {
      notify.error(getErrorMessage(caught, 'Failed to revoke the delegation'));
    } finally {
      setRevoking(null);
    }
  }

  return (
    <Card role="region" aria-label="On-chain funds">
      <CardHeader
        title="On-chain funds"
        icon={<KeyRound className="size-4" />}
        description="Your bot key, what it holds, and the SOL you approved it to trade"
        actions={
          <Button size="xs" variant="secondary" onClick={() => setIsWithdrawing(true)}>
            <Wallet className="size-3.5" /> Withdraw
          </Button>
        }
      />
      <div className="grid gap-3 p-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="grid min-w-0 content-start gap-3">
          {balance.isPending ? (
            <Skeleton className="h-16" />
          ) : balance.isError ? (
            <p className="text-xs text-down">{getErrorMessage(balance.error, BOT_MESSAGES.balanceFailed)}</p>
          ) : (
            <dl className="grid grid-cols-3 gap-2 text-xs">
              <div className="col-span-3 min-w-0">
                <dt className="text-[11px] text-faint">Bot public key</dt>
                <dd className="flex min-w-0 items-center gap-1 font-mono text-fg">
                  <span className="truncate">{balance.data.bot_public_key}</span>
                  <CopyButton value={balance.data.bot_public_key} label="Copy bot public key" />
                </dd>
              </div>
              <div className="min-w-0">
                <dt className="text-[11px] text-faint">Balance</dt>
                <dd className="num truncate text-fg">{formatFixed(balance.data.balance, 6)} SOL</dd>
              </div>
              <div className="min-w-0">
                <dt className="text-[11px] text-faint">Allowance left</dt>
                <dd className="num truncate text-fg">{formatFixed(balance.data.allowance, 4)} SOL</dd>
              </div>
              <div className="min-w-0">
                <dt className="text-[11px] text-faint">Tokens</dt>
                <dd className="num truncate text-fg">
                  {balance.data.tokens.length === 0
                    ? '—'
                    : balance.data.tokens.map((token) => `${token.amount} ${token.symbol ?? ''}`).join(' · ')}
                </dd>
              </div>
            </dl>
          )}
          <BotPermissions />
        </div>
        <div className="min-w-0">
          <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-faint uppercase">Delegations</h3>
          {delegations.isPending ? (
            <Skeleton className="h-20" />
          ) : shown.length === 0 ? (
            <p className="rounded-md border border-dashed border-line p-3 text-xs text-muted">
              No delegations yet. Start a bot on chain to approve one.
            </p>
          ) : (
            <ul className="grid gap-1.5" aria-label="Delegations">
              {shown.map((row) => (
                <li
                  key={row.delegation_id}
                  className="flex items-center gap-2 rounded-md border border-line px-3 py-2 text-xs"
                >
                  <span className="num text-fg">{row.amount} SOL</span>
                  <Badge tone={STATUS_TONE[row.status]}>{row.status}</Badge>
                  <span className="num hidden text-faint sm:inline">{row.created_at.slice(0, 10)}</span>
                  {row.status === 'active' && (
                    <span className="ml-auto flex gap-1">
                      <Button
                        size="xs"
                        variant="ghost"
                        isLoading={revoking === `${row.delegation_id}:false`}
                        disabled={revoking !== null}
                        onClick={() => void onRevoke(row.delegation_id, false)}
                        title="Revoke the approval; the unused wrapped SOL stays wrapped in your wallet"
                      >
                        Revoke
                      </Button>
                      <Button
                        size="xs"
                        variant="ghost"
                        isLoading={revoking === `${row.delegation_id}:true`}
                        disabled={revoking !== null}
                        onClick={() => void onRevoke(row.delegation_id, true)}
                        title="Revoke and, in the same transaction, unwrap the unused wrapped SOL back into SOL"
                      >
                        Revoke &amp; unwrap
                      </Button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <WithdrawModal isOpen={isWithdrawing} onClose={() => setIsWithdrawing(false)} />
    </Card>
  );
}

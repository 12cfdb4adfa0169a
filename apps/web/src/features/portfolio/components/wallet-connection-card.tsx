import { useId, useState, type FormEvent } from 'react';
import { ChevronDown, ExternalLink, Eye, Link2, LogOut, Plug, Wallet } from 'lucide-react';
import { formatWalletTypeName, shortenAddress } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../auth';
import { NetworkBadge } from '../../network';
import { CopyButton } from '../../../components/ui/copy-button';
import { type ConnectedWallet, type DiscoveredWallet, useWallet, WalletGlyph } from '../../wallet';
import { DASHBOARD_WALLET_KINDS } from '../dashboard-wallet';
import { useDashboardWallet, type DashboardWalletAction } from '../use-dashboard-wallet';

const WALLET_NOTES: Record<string, string> = {
  local: 'Key kept in this browser',
  phantom: 'Browser extension',
  solflare: 'Browser extension',
};

function ConnectedWalletView({
  connected,
  icon,
  isSynced,
  pending,
  onSync,
  onDisconnect,
}: {
  connected: ConnectedWallet;
  icon: string | null;
  isSynced: boolean;
  pending: DashboardWalletAction | null;
  onSync: () => void;
  onDisconnect: () => void;
}) {
  return (
    <div className="space-y-3 p-4">
      <div className="flex items-center gap-3">
        <WalletGlyph kind={connected.kind} icon={icon} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="text-sm font-semibold" data-testid="connected-wallet-name">
              {connected.name}
            </span>
            <Badge tone="up">Connected</Badge>
          </div>
          <div className="mt-0.5 flex min-w-0 items-center gap-1">
            <span
              className="truncate font-mono text-xs text-muted"
              title={connected.address}
              data-testid="connected-wallet-address"
            >
              {shortenAddress(connected.address)}
            </span>
            <CopyButton
              size="md"
              value={connected.address}
              label="Copy wallet address"
              copiedMessage="Address copied"
            />
          </div>
        </div>
        <Badge tone="neutral">{formatWalletTypeName(connected.walletType)}</Badge>
      </div>
      {!isSynced && (
        <Notice
          tone="warn"
          action={
            <Button size="xs" variant="secondary" onClick={onSync} isLoading={pending === 'sync'}>
              {pending !== 'sync' && <Link2 className="size-3" aria-hidden="true" />}
              Link
            </Button>
          }
        >
          Connected locally. Backend sync may be needed.
        </Notice>
      )}
      <Button
        variant="ghost"
        size="sm"
        onClick={onDisconnect}
        isLoading={pending === 'disconnect'}
        disabled={pending !== null}
        className="-ml-2 text-muted"
      >
        {pending !== 'disconnect' && <LogOut className="size-3.5" aria-hidden="true" />}
        Disconnect
      </Button>
    </div>
  );
}

function WalletOptionRow({
  wallet,
  pending,
  onConnect,
}: {
  wallet: DiscoveredWallet;
  pending: DashboardWalletAction | null;
  onConnect: () => void;
}) {
  const isLocal = wallet.kind === 'local';
  const canConnect = wallet.installed || isLocal;
  return (
    <li className="flex items-center gap-3 px-4 py-2.5" aria-label={`${wallet.name} wallet`}>
      <WalletGlyph kind={wallet.kind} icon={wallet.icon} className="size-8" />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-1.5">
          <span className="text-[13px] font-semibold">{wallet.name}</span>
          {wallet.installed && !isLocal && <Badge tone="accent">Detected</Badge>}
          {isLocal && <Badge tone="warn">Test</Badge>}
        </div>
        <p className="truncate text-[11px] text-faint">{WALLET_NOTES[wallet.kind]}</p>
      </div>
      {canConnect ? (
        <Button
          size="xs"
          variant={isLocal ? 'primary' : 'secondary'}
          onClick={onConnect}
          isLoading={pending === wallet.kind}
          disabled={pending !== null}
          aria-label={`Connect ${wallet.name}`}
        >
          {pending !== wallet.kind && <Plug className="size-3" aria-hidden="true" />}
          Connect
        </Button>
      ) : wallet.installUrl ? (
        <a
          href={wallet.installUrl}
          target="_blank"
          rel="noreferrer noopener"
          aria-label={`Install ${wallet.name}`}
          className={buttonClasses({ variant: 'outline', size: 'xs' })}
        >
          Install
          <ExternalLink className="size-3" aria-hidden="true" />
        </a>
      ) : null}
    </li>
  );
}

function ManualAddressForm({
  isPending,
  onSubmit,
}: {
  isPending: boolean;
  onSubmit: (address: string) => Promise<string | null>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const panelId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = await onSubmit(address);
    setError(problem);
    if (!problem) {
      setAddress('');
      setIsOpen(false);
    }
  }

  return (
    <div className="border-t border-line">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((open) => !open)}
        className="flex w-full items-center justify-between gap-2 px-4 py-2.5 text-left text-xs text-muted transition-colors hover:bg-hover/50 hover:text-fg"
      >
        <span className="inline-flex items-center gap-1.5">
          <Eye className="size-3.5" aria-hidden="true" />
          Enter an address manually
        </span>
        <ChevronDown
          className={cn('size-3.5 transition-transform', isOpen && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      {isOpen && (
        <form
          id={panelId}
          onSubmit={submit}
          noValidate
          aria-label="Manual wallet address"
          className="space-y-2 px-4 pb-4"
        >
          <div className="flex items-start gap-2">
            <Input
              aria-label="Wallet address"
              name="wallet_address"
              placeholder="Wallet address"
              autoComplete="off"
              spellCheck={false}
              value={address}
              error={error}
              containerClassName="min-w-0 flex-1"
              className="h-8 font-mono text-xs"
              onChange={(event) => {
                setAddress(event.target.value);
                if (error) setError(null);
              }}
            />
            <Button type="submit" size="sm" isLoading={isPending}>
              Save
            </Button>
          </div>
          <p className="text-[11px] text-faint">
            Watch-only: an address you type cannot sign, so it cannot trade.
          </p>
        </form>
      )}
    </div>
  );
}

/**
 * The dashboard wallet card (spec part 1 §2, §4, §8): the connected wallet (type, short address,
 * copy, disconnect) or the wallets to connect — the Local wallet on test networks, Phantom and
 * Solflare — and a manually typed address.
 */
export function WalletConnectionCard({ className }: { className?: string }) {
  const wallet = useWallet();
  const { user } = useAuth();
  const actions = useDashboardWallet();
  const connected = wallet.connected;
  const options = DASHBOARD_WALLET_KINDS.map((kind) =>
    wallet.wallets.find((item) => item.kind === kind),
  ).filter((item): item is DiscoveredWallet => item !== undefined);
  const accountAddress = user?.solana_wallet_address ?? null;

  return (
    <Card role="region" aria-label="Wallet connection" className={cn('min-w-0 overflow-hidden', className)}>
      <CardHeader title="Wallet" icon={<Wallet className="size-4" />} actions={<NetworkBadge />} />
      {connected ? (
        <ConnectedWalletView
          connected={connected}
          icon={wallet.wallets.find((item) => item.kind === connected.kind)?.icon ?? null}
          isSynced={accountAddress === connected.address}
          pending={actions.pending}
          onSync={() => void actions.sync()}
          onDisconnect={() => void actions.disconnect()}
        />
      ) : wallet.isRestoring ? (
        <div className="flex items-center gap-2 p-4">
          <Spinner size="sm" label="Reconnecting wallet…" isLabelVisible />
        </div>
      ) : (
        <>
          {accountAddress && (
            <p className="border-b border-line px-4 py-2 text-xs text-muted">
              Account wallet{' '}
              <span className="font-mono text-fg" title={accountAddress}>
                {shortenAddress(accountAddress)}
              </span>
              {user?.wallet_type ? ` (${formatWalletTypeName(user.wallet_type)})` : ''} is not connected in
              this browser.
            </p>
          )}
          <ul className="divide-y divide-line/70" aria-label="Wallets">
            {options.map((option) => (
              <WalletOptionRow
                key={option.kind}
                wallet={option}
                pending={actions.pending}
                onConnect={() => void actions.connect(option.kind)}
              />
            ))}
          </ul>
          <ManualAddressForm isPending={actions.pending === 'manual'} onSubmit={actions.connectManual} />
        </>
      )}
    </Card>
  );
}

import { ExternalLink, Link2, LogIn } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import type { ConnectedWallet, DiscoveredWallet } from '../wallet-manager';
import { shortenAddress, WalletGlyph } from './wallet-glyph';

const DESCRIPTIONS: Record<string, string> = {
  metamask: 'EVM wallet · signs an EIP-191 message',
  phantom: 'Solana wallet · Wallet Standard',
  solflare: 'Solana wallet · Wallet Standard',
};

/**
 * One extension wallet: sign in with it, or (when logged in) add it to the account. Disabled with
 * an Install link while the extension is missing.
 */
export function WalletOptionCard({
  wallet,
  connected,
  isLoggedIn,
  isPending,
  isBusy,
  onSignIn,
  onLink,
}: {
  wallet: DiscoveredWallet;
  connected: ConnectedWallet | null;
  isLoggedIn: boolean;
  /** This card's request is running. */
  isPending: boolean;
  /** Another wallet request is running. */
  isBusy: boolean;
  onSignIn: () => void;
  onLink: () => void;
}) {
  const isConnected = connected?.kind === wallet.kind;
  const isDisabled = !wallet.installed || isBusy;
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-lg border border-line bg-raised/40 p-3 transition-colors',
        wallet.installed ? 'hover:border-line-strong' : 'opacity-80',
      )}
      aria-label={`${wallet.name} wallet`}
    >
      <WalletGlyph kind={wallet.kind} icon={wallet.icon} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-sm font-semibold text-fg">{wallet.name}</span>
          {isConnected ? (
            <Badge tone="up">Connected</Badge>
          ) : wallet.installed ? (
            <Badge tone="accent">Detected</Badge>
          ) : (
            <Badge>Not installed</Badge>
          )}
        </div>
        <p className="mt-0.5 truncate text-xs text-muted">
          {isConnected && connected ? (
            <span className="font-mono">{shortenAddress(connected.address)}</span>
          ) : (
            DESCRIPTIONS[wallet.kind]
          )}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-stretch gap-1.5">
        {!wallet.installed && wallet.installUrl && (
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
        )}
        {isLoggedIn && wallet.installed && (
          <Button
            size="xs"
            disabled={isDisabled}
            isLoading={isPending}
            onClick={onLink}
            aria-label={`Link ${wallet.name} to my account`}
          >
            {!isPending && <Link2 className="size-3" aria-hidden="true" />}
            Link
          </Button>
        )}
        <Button
          variant={isLoggedIn || !wallet.installed ? 'secondary' : 'primary'}
          size="xs"
          disabled={isDisabled}
          isLoading={isPending && !isLoggedIn}
          onClick={onSignIn}
          aria-label={`Sign in with ${wallet.name}`}
        >
          {!(isPending && !isLoggedIn) && <LogIn className="size-3" aria-hidden="true" />}
          Sign in
        </Button>
      </div>
    </li>
  );
}

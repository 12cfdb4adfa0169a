import { ArrowLeft, Eye, LogOut, ShieldCheck, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from '../../components/layout/auth-layout';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { TabPanel, Tabs } from '../../components/ui/tabs';
import { LoginForm } from '../../features/auth/components/login-form';
import { useAuth } from '../../features/auth/use-auth';
import { NetworkBadge } from '../../features/network/network-badge';
import { useNetwork } from '../../features/network/use-network';
import { LocalWalletCard } from '../../features/wallet/components/local-wallet-card';
import { ManualConnectForm } from '../../features/wallet/components/manual-connect-form';
import { shortenAddress } from '../../features/wallet/components/wallet-glyph';
import { WalletOptionCard } from '../../features/wallet/components/wallet-option-card';
import { useWalletSignIn } from '../../features/wallet/use-wallet-sign-in';
import { useWallet } from '../../features/wallet/wallet-context';
import type { ConnectedWallet } from '../../features/wallet/wallet-manager';

type MainTab = 'wallet' | 'signin';
type WalletTab = 'manual' | 'wallets';

const MAIN_TABS = [
  { value: 'wallet', label: 'Wallet', icon: <Wallet className="size-3.5" aria-hidden="true" /> },
  { value: 'signin', label: 'Sign In (Optional)' },
] as const;

const WALLET_TABS = [
  { value: 'manual', label: 'Manual Connect', icon: <Eye className="size-3.5" aria-hidden="true" /> },
  { value: 'wallets', label: 'Wallets', icon: <ShieldCheck className="size-3.5" aria-hidden="true" /> },
] as const;

/** The wallet connected now, with Disconnect. */
function ConnectedWalletBar({
  connected,
  onDisconnect,
}: {
  connected: ConnectedWallet;
  onDisconnect: () => void;
}) {
  return (
    <div className="flex items-center justify-between gap-3 rounded-md border border-line bg-raised px-3 py-2">
      <div className="flex min-w-0 items-center gap-2 text-xs">
        <Badge tone="up">Connected</Badge>
        <span className="truncate text-muted">
          {connected.name} · <span className="font-mono text-fg">{shortenAddress(connected.address)}</span>
        </span>
      </div>
      <Button variant="ghost" size="xs" onClick={onDisconnect}>
        <LogOut className="size-3.5" aria-hidden="true" />
        Disconnect
      </Button>
    </div>
  );
}

/** /wallet-connect (public): sign in with a wallet, watch an address, or log in with email. */
export default function WalletConnectPage() {
  const [tab, setTab] = useState<MainTab>('wallet');
  const [walletTab, setWalletTab] = useState<WalletTab>('wallets');
  const { user } = useAuth();
  const { network, isTestNetwork } = useNetwork();
  const wallet = useWallet();
  const { pending, signIn, linkToAccount, connectManual } = useWalletSignIn();
  const isLoggedIn = user !== null;
  const extensionWallets = wallet.wallets.filter((candidate) => candidate.kind !== 'local');

  return (
    <AuthLayout
      footer={
        <Link to="/auth" className="inline-flex items-center gap-1 hover:text-muted">
          <ArrowLeft className="size-3" aria-hidden="true" />
          Back to login
        </Link>
      }
    >
      <div className="mb-5">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Connect a wallet</h1>
          <NetworkBadge />
        </div>
        <p className="mt-1 text-sm text-muted">
          Sign a one-time message to prove the wallet is yours. No transaction, no fee.
        </p>
      </div>

      <Tabs
        idBase="wallet-connect"
        ariaLabel="Sign-in method"
        value={tab}
        onChange={setTab}
        items={MAIN_TABS}
        isBlock
      />

      {tab === 'wallet' && (
        <TabPanel
          idBase="wallet-connect"
          value="wallet"
          // Truncated addresses must not widen the page on phones: the panel takes its width from the layout.
          className="mt-4 flex flex-col gap-4 [contain:inline-size]"
        >
          {isLoggedIn && (
            <Notice tone="info" title={`Signed in as ${user.username}`}>
              Link a wallet to add it to your account, or sign in with a wallet to switch accounts.
            </Notice>
          )}

          {wallet.connected && (
            <ConnectedWalletBar connected={wallet.connected} onDisconnect={() => void wallet.disconnect()} />
          )}

          <Tabs
            idBase="wallet-method"
            ariaLabel="Wallet connection method"
            value={walletTab}
            onChange={setWalletTab}
            items={WALLET_TABS}
            variant="underline"
          />

          {walletTab === 'manual' && (
            <TabPanel idBase="wallet-method" value="manual">
              <ManualConnectForm onSubmit={connectManual} isPending={pending === 'manual'} />
            </TabPanel>
          )}

          {walletTab === 'wallets' && (
            <TabPanel idBase="wallet-method" value="wallets" className="flex flex-col gap-3">
              <ul className="flex flex-col gap-2" aria-label="Browser wallets">
                {extensionWallets.map((candidate) => (
                  <WalletOptionCard
                    key={candidate.kind}
                    wallet={candidate}
                    connected={wallet.connected}
                    isLoggedIn={isLoggedIn}
                    isPending={pending === candidate.kind}
                    isBusy={pending !== null}
                    onSignIn={() => void signIn(candidate.kind)}
                    onLink={() => void linkToAccount(candidate.kind)}
                  />
                ))}
              </ul>
              {isTestNetwork && (
                <LocalWalletCard
                  network={network}
                  connected={wallet.connected}
                  isLoggedIn={isLoggedIn}
                  isPending={pending === 'local'}
                  isBusy={pending !== null}
                  onSignIn={() => void signIn('local')}
                  onLink={() => void linkToAccount('local')}
                />
              )}
              <p className="text-center text-[11px] text-faint">
                Signing proves ownership only: it never moves funds or grants spending rights.
              </p>
            </TabPanel>
          )}
        </TabPanel>
      )}

      {tab === 'signin' && (
        <TabPanel idBase="wallet-connect" value="signin" className="mt-5">
          <LoginForm />
        </TabPanel>
      )}
    </AuthLayout>
  );
}

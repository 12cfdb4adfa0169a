import { Download, EyeOff, KeyRound, Link2, LogIn, Plus, Upload } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CONTROL_CLASSES, Label } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { LOCAL_WALLET_ICON } from '../local-wallet/local-wallet-icon';
import { useLocalWallet } from '../local-wallet/use-local-wallet';
import type { ConnectedWallet } from '../wallet-manager';
import { CopyButton } from '../../../components/ui/copy-button';
import { WalletGlyph } from './wallet-glyph';

type Panel = 'none' | 'import' | 'confirm-create' | 'confirm-export' | 'export';

/**
 * The Local wallet's own screen (test networks only): create, import, export the key kept in
 * this browser, and sign in with it like any other wallet.
 */
export function LocalWalletCard({
  network,
  connected,
  isLoggedIn,
  isPending,
  isBusy,
  onSignIn,
  onLink,
}: {
  network: string;
  connected: ConnectedWallet | null;
  isLoggedIn: boolean;
  isPending: boolean;
  isBusy: boolean;
  onSignIn: () => void;
  onLink: () => void;
}) {
  const local = useLocalWallet();
  const [panel, setPanel] = useState<Panel>('none');
  const [secretInput, setSecretInput] = useState('');
  const [importError, setImportError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const secretId = useId();
  const isConnected = connected?.kind === 'local' && connected.address === local.address;

  function create() {
    local.create();
    setPanel('none');
    setRevealed(null);
    notify.success('Local wallet created');
  }

  function submitImport(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      local.importSecretKey(secretInput);
      setSecretInput('');
      setImportError(null);
      setPanel('none');
      setRevealed(null);
      notify.success('Local wallet imported');
    } catch (error) {
      setImportError(error instanceof Error ? error.message : 'This secret key could not be read.');
    }
  }

  function reveal() {
    setRevealed(local.exportSecretKey());
    setPanel('export');
  }

  function closePanel() {
    setPanel('none');
    setRevealed(null);
    setImportError(null);
  }

  return (
    <section aria-label="Local wallet" className="rounded-lg border border-accent/30 bg-accent-soft/30 p-3">
      <div className="flex items-start gap-3">
        <WalletGlyph kind="local" icon={LOCAL_WALLET_ICON} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-1.5">
            <h3 className="text-sm font-semibold text-fg">Local wallet</h3>
            <Badge tone="warn">{network}</Badge>
            {isConnected && <Badge tone="up">Connected</Badge>}
          </div>
          <p className="mt-0.5 text-xs text-muted">
            A key kept in this browser, for test networks only. Never hold real funds in it.
          </p>
        </div>
      </div>

      <div className="mt-3 rounded-md border border-line bg-canvas px-3 py-2">
        <div className="text-[11px] font-medium tracking-wide text-faint uppercase">Address</div>
        {local.address ? (
          <div className="flex items-center gap-1">
            <code
              className="min-w-0 flex-1 truncate font-mono text-[13px] text-fg"
              data-testid="local-wallet-address"
            >
              {local.address}
            </code>
            <CopyButton size="md" value={local.address} label="Copy address" copiedMessage="Address copied" />
          </div>
        ) : (
          <p className="py-0.5 text-[13px] text-muted">
            No key yet. Create one or import an existing secret key.
          </p>
        )}
      </div>

      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => (local.address ? setPanel('confirm-create') : create())}
          disabled={isBusy}
        >
          <Plus className="size-3.5" aria-hidden="true" />
          {local.address ? 'Create new' : 'Create'}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setPanel(panel === 'import' ? 'none' : 'import')}
          aria-expanded={panel === 'import'}
          disabled={isBusy}
        >
          <Upload className="size-3.5" aria-hidden="true" />
          Import
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setPanel('confirm-export')}
          disabled={!local.address}
        >
          <Download className="size-3.5" aria-hidden="true" />
          Export
        </Button>
      </div>

      {panel === 'confirm-create' && (
        <Notice
          tone="warn"
          title="Replace this key?"
          className="mt-3"
          action={
            <div className="flex flex-col gap-1.5 sm:flex-row">
              <Button size="xs" variant="danger" onClick={create}>
                Replace key
              </Button>
              <Button size="xs" variant="ghost" onClick={closePanel}>
                Cancel
              </Button>
            </div>
          }
        >
          The current key is deleted from this browser. Export it first if it holds anything.
        </Notice>
      )}

      {panel === 'import' && (
        <form onSubmit={submitImport} noValidate className="mt-3 flex flex-col gap-2">
          <Label htmlFor={secretId} className="mb-0">
            Secret key (base58, as Phantom exports it, or a solana-keygen JSON array)
          </Label>
          <textarea
            id={secretId}
            rows={3}
            value={secretInput}
            onChange={(event) => {
              setSecretInput(event.target.value);
              setImportError(null);
            }}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={importError ? true : undefined}
            aria-describedby={importError ? `${secretId}-error` : undefined}
            className={cn(CONTROL_CLASSES, 'resize-none px-3 py-2 font-mono text-xs break-all')}
            placeholder="4NMw… or [12,250,…]"
          />
          {importError && (
            <p id={`${secretId}-error`} className="text-xs text-down">
              {importError}
            </p>
          )}
          {local.address && (
            <p className="text-xs text-warn">Importing replaces the current key in this browser.</p>
          )}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={secretInput.trim() === ''}>
              Import key
            </Button>
            <Button size="sm" variant="ghost" onClick={closePanel}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {panel === 'confirm-export' && (
        <Notice
          tone="error"
          title="Reveal the secret key?"
          className="mt-3"
          action={
            <div className="flex flex-col gap-1.5 sm:flex-row">
              <Button size="xs" variant="danger" onClick={reveal}>
                Reveal secret key
              </Button>
              <Button size="xs" variant="ghost" onClick={closePanel}>
                Cancel
              </Button>
            </div>
          }
        >
          Anyone who sees it controls this wallet. Make sure no one is watching your screen.
        </Notice>
      )}

      {panel === 'export' && revealed && (
        <div className="mt-3 rounded-md border border-down/30 bg-down-soft p-2.5">
          <div className="flex items-center justify-between gap-2">
            <span className="flex items-center gap-1.5 text-xs font-medium text-down">
              <KeyRound className="size-3.5" aria-hidden="true" />
              Secret key (base58)
            </span>
            <div className="flex items-center gap-1">
              <CopyButton
                size="md"
                value={revealed}
                label="Copy secret key"
                copiedMessage="Secret key copied"
              />
              <Button
                variant="ghost"
                size="xs"
                onClick={closePanel}
                aria-label="Hide secret key"
                className="w-7 px-0"
              >
                <EyeOff className="size-3.5" />
              </Button>
            </div>
          </div>
          <code
            data-testid="local-wallet-secret"
            className="mt-1.5 block font-mono text-[11px] leading-relaxed break-all text-fg select-all"
          >
            {revealed}
          </code>
        </div>
      )}

      <div className="mt-3 flex flex-col gap-2 border-t border-line pt-3">
        {isLoggedIn && (
          <Button
            size="sm"
            disabled={!local.address || isBusy}
            isLoading={isPending}
            onClick={onLink}
            className="flex-1"
          >
            {!isPending && <Link2 className="size-3.5" aria-hidden="true" />}
            Link Local wallet to my account
          </Button>
        )}
        <Button
          size="sm"
          variant={isLoggedIn ? 'secondary' : 'primary'}
          disabled={!local.address || isBusy}
          isLoading={isPending && !isLoggedIn}
          onClick={onSignIn}
          className="flex-1"
        >
          {!(isPending && !isLoggedIn) && <LogIn className="size-3.5" aria-hidden="true" />}
          Sign in with Local wallet
        </Button>
      </div>
    </section>
  );
}

import { Download, EyeOff, KeyRound, Link2, LogIn, Plus, Upload } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
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

/** A warning with a confirm and a cancel button, before a step that cannot be undone. */
function ConfirmNotice({
  tone,
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
}: {
  tone: 'warn' | 'error';
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Notice
      tone={tone}
      title={title}
      className="mt-3"
      action={
        <div className="flex flex-col gap-1.5 sm:flex-row">
          <Button size="xs" variant="danger" onClick={onConfirm}>
            {confirmLabel}
          </Button>
          <Button size="xs" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      }
    >
      {children}
    </Notice>
  );
}

/** Pasting a secret key to import (base58 or a solana-keygen JSON array). */
function ImportKeyForm({
  idBase,
  value,
  error,
  isReplacing,
  onChange,
  onSubmit,
  onCancel,
}: {
  idBase: string;
  value: string;
  error: string | null;
  isReplacing: boolean;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-2">
      <Label htmlFor={idBase} className="mb-0">
        Secret key (base58, as Phantom exports it, or a solana-keygen JSON array)
      </Label>
      <textarea
        id={idBase}
        rows={3}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${idBase}-error` : undefined}
        className={cn(CONTROL_CLASSES, 'resize-none px-3 py-2 font-mono text-xs break-all')}
        placeholder="4NMw… or [12,250,…]"
      />
      {error && (
        <p id={`${idBase}-error`} className="text-xs text-down">
          {error}
        </p>
      )}
      {isReplacing && (
        <p className="text-xs text-warn">Importing replaces the current key in this browser.</p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={value.trim() === ''}>
          Import key
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The revealed secret key, to copy, with a button that hides it again. */
function RevealedSecretKey({ secretKey, onHide }: { secretKey: string; onHide: () => void }) {
  return (
    <div className="mt-3 rounded-md border border-down/30 bg-down-soft p-2.5">
      <div className="flex items-center justify-between gap-2">
        <span className="flex items-center gap-1.5 text-xs font-medium text-down">
          <KeyRound className="size-3.5" aria-hidden="true" />
          Secret key (base58)
        </span>
        <div className="flex items-center gap-1">
          <CopyButton size="md" value={secretKey} label="Copy secret key" copiedMessage="Secret key copied" />
          <Button
            variant="ghost"
            size="xs"
            onClick={onHide}
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
        {secretKey}
      </code>
    </div>
  );
}

/** The Local wallet's name, network, whether it is connected, and its warning. */
function LocalWalletHeader({ network, isConnected }: { network: string; isConnected: boolean }) {
  return (
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
  );
}

/** The key's address to copy, or how to get a key. */
function LocalWalletAddress({ address }: { address: string | null }) {
  return (
    <div className="mt-3 rounded-md border border-line bg-canvas px-3 py-2">
      <div className="text-[11px] font-medium tracking-wide text-faint uppercase">Address</div>
      {address ? (
        <div className="flex items-center gap-1">
          <code
            className="min-w-0 flex-1 truncate font-mono text-[13px] text-fg"
            data-testid="local-wallet-address"
          >
            {address}
          </code>
          <CopyButton size="md" value={address} label="Copy address" copiedMessage="Address copied" />
        </div>
      ) : (
        <p className="py-0.5 text-[13px] text-muted">
          No key yet. Create one or import an existing secret key.
        </p>
      )}
    </div>
  );
}

/** Link the Local wallet to the account (when logged in) and sign in with it. */
function LocalWalletSignIn({
  isLoggedIn,
  isDisabled,
  isPending,
  onLink,
  onSignIn,
}: {
  isLoggedIn: boolean;
  isDisabled: boolean;
  isPending: boolean;
  onLink: () => void;
  onSignIn: () => void;
}) {
  return (
    <div className="mt-3 flex flex-col gap-2 border-t border-line pt-3">
      {isLoggedIn && (
        <Button size="sm" disabled={isDisabled} isLoading={isPending} onClick={onLink} className="flex-1">
          {!isPending && <Link2 className="size-3.5" aria-hidden="true" />}
          Link Local wallet to my account
        </Button>
      )}
      <Button
        size="sm"
        variant={isLoggedIn ? 'secondary' : 'primary'}
        disabled={isDisabled}
        isLoading={isPending && !isLoggedIn}
        onClick={onSignIn}
        className="flex-1"
      >
        {!(isPending && !isLoggedIn) && <LogIn className="size-3.5" aria-hidden="true" />}
        Sign in with Local wallet
      </Button>
    </div>
  );
}

/** Create (or replace), import and export the key. */
function KeyActions({
  hasKey,
  isImportOpen,
  isBusy,
  onCreate,
  onToggleImport,
  onExport,
}: {
  hasKey: boolean;
  isImportOpen: boolean;
  isBusy: boolean;
  onCreate: () => void;
  onToggleImport: () => void;
  onExport: () => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <Button variant="secondary" size="sm" onClick={onCreate} disabled={isBusy}>
        <Plus className="size-3.5" aria-hidden="true" />
        {hasKey ? 'Create new' : 'Create'}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={onToggleImport}
        aria-expanded={isImportOpen}
        disabled={isBusy}
      >
        <Upload className="size-3.5" aria-hidden="true" />
        Import
      </Button>
      <Button variant="secondary" size="sm" onClick={onExport} disabled={!hasKey}>
        <Download className="size-3.5" aria-hidden="true" />
        Export
      </Button>
    </div>
  );
}

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
      <LocalWalletHeader network={network} isConnected={isConnected} />

      <LocalWalletAddress address={local.address} />

      <KeyActions
        hasKey={local.address !== null}
        isImportOpen={panel === 'import'}
        isBusy={isBusy}
        onCreate={() => (local.address ? setPanel('confirm-create') : create())}
        onToggleImport={() => setPanel(panel === 'import' ? 'none' : 'import')}
        onExport={() => setPanel('confirm-export')}
      />

      {panel === 'confirm-create' && (
        <ConfirmNotice
          tone="warn"
          title="Replace this key?"
          confirmLabel="Replace key"
          onConfirm={create}
          onCancel={closePanel}
        >
          The current key is deleted from this browser. Export it first if it holds anything.
        </ConfirmNotice>
      )}

      {panel === 'import' && (
        <ImportKeyForm
          idBase={secretId}
          value={secretInput}
          error={importError}
          isReplacing={Boolean(local.address)}
          onChange={(value) => {
            setSecretInput(value);
            setImportError(null);
          }}
          onSubmit={submitImport}
          onCancel={closePanel}
        />
      )}

      {panel === 'confirm-export' && (
        <ConfirmNotice
          tone="error"
          title="Reveal the secret key?"
          confirmLabel="Reveal secret key"
          onConfirm={reveal}
          onCancel={closePanel}
        >
          Anyone who sees it controls this wallet. Make sure no one is watching your screen.
        </ConfirmNotice>
      )}

      {panel === 'export' && revealed && <RevealedSecretKey secretKey={revealed} onHide={closePanel} />}

      <LocalWalletSignIn
        isLoggedIn={isLoggedIn}
        isDisabled={!local.address || isBusy}
        isPending={isPending}
        onLink={onLink}
        onSignIn={onSignIn}
      />
    </section>
  );
}

import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import {
  DELEGATION_DEFAULT_SOL,
  DELEGATION_MAX_SOL,
  DELEGATION_MIN_SOL,
  DELEGATION_STEP_SOL,
} from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { getErrorMessage } from '../../../lib/api-client';
import { useWallet } from '../../wallet';
import { delegationAmountError } from '../bot-funds-model';
import { useDelegationFlow, type DelegationStage } from '../use-delegation-flow';
import { BotPermissions } from './bot-permissions';

const STAGE_LABEL: Record<DelegationStage, string> = {
  idle: 'Approve and start',
  creating: 'Creating…',
  signing: 'Sign in your wallet…',
  submitting: 'Submitting…',
};

/**
 * Approve Bot Delegation (part 2 §4): the SOL the bot may trade, one transaction the wallet signs
 * (an SPL approve of wrapped SOL to the bot key), then the bot starts. It cannot be closed while
 * the transaction is being created or signed.
 */
export function DelegationModal({
  botName,
  isOpen,
  onClose,
  onApproved,
}: {
  botName: string;
  isOpen: boolean;
  onClose: () => void;
  /** Called once the approval landed (the caller starts the bot). */
  onApproved: () => Promise<void>;
}) {
  const wallet = useWallet();
  const flow = useDelegationFlow();
  const [amount, setAmount] = useState(String(DELEGATION_DEFAULT_SOL));
  const [error, setError] = useState<string | null>(null);
  const invalid = delegationAmountError(amount);
  const busy = flow.stage !== 'idle';

  async function onApprove() {
    setError(null);
    try {
      await flow.approve(Number(amount));
      await onApproved();
      onClose();
    } catch (caught) {
      setError(getErrorMessage(caught, 'Delegation failed'));
    }
  }

  return (
    <Modal
      title="Approve Bot Delegation"
      description={`“${botName}” trades on chain with SOL you approve from your wallet.`}
      isOpen={isOpen}
      isLocked={flow.stage === 'creating' || flow.stage === 'signing'}
      onClose={onClose}
    >
      <div className="grid gap-3">
        <Input
          label="Amount (SOL)"
          type="number"
          inputMode="decimal"
          min={DELEGATION_MIN_SOL}
          max={DELEGATION_MAX_SOL}
          step={DELEGATION_STEP_SOL}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          hint={`${DELEGATION_MIN_SOL}–${DELEGATION_MAX_SOL} SOL in steps of ${DELEGATION_STEP_SOL}. It stays in your wallet as wrapped SOL until the bot draws it.`}
          error={amount.trim() !== '' ? (invalid ?? undefined) : undefined}
          disabled={busy}
        />
        <BotPermissions />
        {!wallet.connected && (
          <Notice tone="warn" title="Wallet Required">
            Connect a Solana wallet (Phantom, Solflare or the Local wallet) to sign the approval.
          </Notice>
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <div className="flex justify-end gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={onClose}
            disabled={flow.stage === 'creating' || flow.stage === 'signing'}
          >
            Cancel
          </Button>
          <Button
            size="sm"
            onClick={() => void onApprove()}
            disabled={invalid !== null || Number(amount) <= 0 || !wallet.connected}
            isLoading={busy}
          >
            <ShieldCheck className="size-3.5" /> {STAGE_LABEL[flow.stage]}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

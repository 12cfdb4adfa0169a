import { Check, X } from 'lucide-react';

const CAN = [
  'Draw wrapped SOL from your wallet, up to the amount you approve (the token program enforces it)',
  'Swap at the spot venue from its own key, with a receipt for every trade',
  'Pay its own network fees from the 0.01 SOL fee float',
];
const CANNOT = [
  'Move any other token of yours, or more SOL than you approved',
  'Send funds anywhere but back to your wallet (Withdraw has no other destination)',
  'Keep drawing after you revoke: revoking ends the approval on chain',
];

/** What an on-chain bot can and cannot do, said plainly (shown before the wallet signs). */
export function BotPermissions() {
  return (
    <section
      aria-label="Bot permissions"
      className="grid gap-2 rounded-md border border-line bg-raised/40 p-3 text-xs"
    >
      <h3 className="text-[11px] font-semibold tracking-wide text-faint uppercase">Permissions</h3>
      <ul className="grid gap-1">
        {CAN.map((line) => (
          <li key={line} className="flex gap-2 text-fg">
            <Check className="mt-0.5 size-3.5 shrink-0 text-up" aria-label="Can" /> {line}
          </li>
        ))}
        {CANNOT.map((line) => (
          <li key={line} className="flex gap-2 text-muted">
            <X className="mt-0.5 size-3.5 shrink-0 text-down" aria-label="Cannot" /> {line}
          </li>
        ))}
      </ul>
    </section>
  );
}

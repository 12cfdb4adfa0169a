import { cn } from '../../../lib/cn';
import type { WalletKind } from '../wallet-kinds';

// Brand tints for wallets that are not installed (an installed Standard wallet brings its own icon).
const GLYPHS: Record<WalletKind, { letter: string; className: string }> = {
  metamask: { letter: 'M', className: 'bg-[#f6851b]/15 text-[#f6851b] ring-[#f6851b]/30' },
  phantom: { letter: 'P', className: 'bg-[#ab9ff2]/15 text-[#ab9ff2] ring-[#ab9ff2]/30' },
  solflare: { letter: 'S', className: 'bg-[#fc9b28]/15 text-[#fc9b28] ring-[#fc9b28]/30' },
  local: { letter: 'L', className: 'bg-accent-soft text-accent ring-accent/30' },
};

/** A wallet's icon: the wallet's own data: URI when it has one, else a tinted initial. */
export function WalletGlyph({
  kind,
  icon,
  className,
}: {
  kind: WalletKind;
  icon?: string | null;
  className?: string;
}) {
  if (icon) {
    return (
      <img src={icon} alt="" aria-hidden="true" className={cn('size-9 shrink-0 rounded-lg', className)} />
    );
  }
  const glyph = GLYPHS[kind];
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-lg text-sm font-bold ring-1',
        glyph.className,
        className,
      )}
    >
      {glyph.letter}
    </span>
  );
}

/** 7xKX…9fQe */
export function shortenAddress(address: string, visible = 4): string {
  if (address.length <= visible * 2 + 1) return address;
  const head = address.startsWith('0x') ? visible + 2 : visible;
  return `${address.slice(0, head)}…${address.slice(-visible)}`;
}

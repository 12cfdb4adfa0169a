import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Bot, CandlestickChart, ShieldCheck, Zap } from 'lucide-react';
import { Brand } from './brand';

const HIGHLIGHTS = [
  { icon: Zap, title: 'On-chain spot swaps', text: 'Quotes, balances and signing in your own wallet.' },
  {
    icon: CandlestickChart,
    title: 'Perpetual futures',
    text: 'SOL, BTC and ETH perps with up to 100x leverage.',
  },
  { icon: Bot, title: 'Bots and backtests', text: 'Run strategies live or replay them on history first.' },
  {
    icon: ShieldCheck,
    title: 'Non-custodial sign-in',
    text: 'Prove a wallet with one signed message. No fee.',
  },
];

const TAPE = [
  { symbol: 'SOL', price: '172.45', change: '+3.21%', isUp: true },
  { symbol: 'BTC', price: '67,412.80', change: '+1.08%', isUp: true },
  { symbol: 'ETH', price: '3,518.22', change: '-0.64%', isUp: false },
  { symbol: 'JUP', price: '1.1240', change: '+5.77%', isUp: true },
];

/**
 * Frame of the public account pages (/auth, password reset, OTP): the form on the right, a product
 * panel on the left on wide screens.
 */
export function AuthLayout({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="grid min-h-dvh grid-cols-1 bg-canvas lg:grid-cols-[minmax(0,1fr)_minmax(0,1.05fr)]">
      <aside className="relative hidden overflow-hidden border-r border-line bg-panel lg:flex lg:flex-col">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,rgb(139_123_255/0.18),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgb(22_199_132/0.10),transparent_50%)]"
        />
        <div className="relative flex flex-1 flex-col p-10">
          <Brand />
          <div className="mt-auto max-w-md">
            <h2 className="text-3xl leading-tight font-semibold tracking-tight">
              One terminal for <span className="text-accent">every Solana trade</span>.
            </h2>
            <ul className="mt-8 space-y-5">
              {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
                <li key={title} className="flex gap-3">
                  <span className="flex size-9 shrink-0 items-center justify-center rounded-lg border border-line bg-raised text-accent">
                    <Icon className="size-4" />
                  </span>
                  <div>
                    <p className="text-sm font-medium">{title}</p>
                    <p className="text-sm text-muted">{text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <div className="mt-10 grid grid-cols-4 gap-px overflow-hidden rounded-lg border border-line bg-line">
            {TAPE.map((row) => (
              <div key={row.symbol} className="bg-panel px-3 py-2.5">
                <p className="text-[11px] font-medium text-muted">{row.symbol}</p>
                <p className="num text-[13px] font-semibold">{row.price}</p>
                <p className={`num text-[11px] ${row.isUp ? 'text-up' : 'text-down'}`}>{row.change}</p>
              </div>
            ))}
          </div>
          <p className="mt-2 text-[11px] text-faint">Sample figures for illustration.</p>
        </div>
      </aside>
      <main className="flex flex-col px-4 py-6 sm:px-8">
        <div className="lg:hidden">
          <Brand />
        </div>
        <div className="flex flex-1 items-center justify-center py-8">
          <div className="w-full max-w-[400px]">{children}</div>
        </div>
        <footer className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-xs text-faint">
          {footer}
          <Link to="/terms" className="hover:text-muted">
            Terms
          </Link>
          <Link to="/privacy" className="hover:text-muted">
            Privacy
          </Link>
          <span>© {new Date().getFullYear()} solterm</span>
        </footer>
      </main>
    </div>
  );
}

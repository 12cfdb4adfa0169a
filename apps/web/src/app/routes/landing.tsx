import { Link } from 'react-router';
import {
  ArrowRight,
  ArrowUpRight,
  Bot,
  CandlestickChart,
  FlaskConical,
  ShieldCheck,
  Store,
  Wallet,
  Zap,
} from 'lucide-react';
import { PublicFooter } from '../../components/layout/public-footer';
import { PublicHeader } from '../../components/layout/public-header';
import { buttonClasses } from '../../components/ui/button';
import { Sparkline } from '../../components/ui/sparkline';
import { cn } from '../../lib/cn';
import { FEATURED_COINS } from '../../features/landing/sample-market';
import { TerminalMock } from '../../features/landing/terminal-mock';
import { formatPlainPercent } from '../../lib/format';

const FEATURES = [
  {
    icon: Zap,
    title: 'On-chain spot swaps',
    text: 'Market and limit orders on Solana. The terminal builds the transaction; your wallet signs it.',
  },
  {
    icon: CandlestickChart,
    title: 'Perpetual futures',
    text: 'Trade SOL, BTC and ETH perps with 1–100x leverage, a live order book and USDC cross-margin.',
  },
  {
    icon: Bot,
    title: 'Automated bots',
    text: 'Run SMA crossover, DCA, grid or RSI strategies — or upload your own JavaScript or Python bot.',
  },
  {
    icon: FlaskConical,
    title: 'Backtesting',
    text: 'Replay a bot over historical candles and read return, win rate, drawdown and Sharpe before going live.',
  },
  {
    icon: Store,
    title: 'Bot marketplace',
    text: 'Browse public bots by risk and performance, inspect their metrics and copy one in a click.',
  },
  {
    icon: ShieldCheck,
    title: 'Wallet sign-in',
    text: 'Log in with Phantom, Solflare or MetaMask by signing a one-time message. No gas, no password.',
  },
];

const STATS = [
  { value: '100x', label: 'max futures leverage' },
  { value: '4', label: 'built-in bot strategies' },
  { value: 'JS + Python', label: 'for your own bots' },
  { value: '8', label: 'chart intervals, 1S to 1D' },
];

const SECTION_LINKS = [
  { href: '#markets', label: 'Markets' },
  { href: '#features', label: 'Features' },
  { href: '#get-started', label: 'Get started' },
];

/** Featured coins with sample figures (the terminal shows live prices). */
function FeaturedCoinsSection() {
  return (
    <section id="markets" className="mx-auto max-w-6xl scroll-mt-16 px-4 py-16 sm:px-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-xs font-semibold tracking-widest text-accent uppercase">Markets</p>
          <h2 className="mt-2 text-2xl font-semibold tracking-tight sm:text-3xl">Featured coins</h2>
        </div>
        <p className="text-xs text-faint">
          Sample figures for illustration — live prices inside the terminal.
        </p>
      </div>
      <div className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURED_COINS.map((coin) => {
          const isUp = coin.change >= 0;
          return (
            <div
              key={coin.symbol}
              className="group rounded-panel border border-line bg-panel p-4 transition-colors hover:border-line-strong"
            >
              <div className="flex items-center justify-between">
                <div className="flex items-center gap-2.5">
                  <span className="flex size-8 items-center justify-center rounded-full bg-raised text-[11px] font-bold text-fg ring-1 ring-line">
                    {coin.symbol.slice(0, 3)}
                  </span>
                  <div>
                    <p className="text-sm font-semibold">{coin.symbol}</p>
                    <p className="text-xs text-muted">{coin.name}</p>
                  </div>
                </div>
                <span
                  className={cn(
                    'num rounded px-1.5 py-0.5 text-xs font-semibold',
                    isUp ? 'bg-up-soft text-up' : 'bg-down-soft text-down',
                  )}
                >
                  {isUp ? '+' : ''}
                  {formatPlainPercent(coin.change)}
                </span>
              </div>
              <div className="mt-4 flex items-end justify-between gap-4">
                <div>
                  <p className="num text-lg font-semibold">{coin.price}</p>
                  <p className="num text-xs text-faint">Vol {coin.volume}</p>
                </div>
                <Sparkline values={coin.spark} className="h-10 w-28" />
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The public landing page (spec part 1 §1): hero, featured coins, features, call to action, footer. */
export default function LandingPage() {
  return (
    <div className="min-h-dvh bg-canvas">
      <PublicHeader links={SECTION_LINKS} />

      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_60%_50%_at_50%_-10%,rgb(139_123_255/0.22),transparent),radial-gradient(ellipse_40%_40%_at_90%_40%,rgb(22_199_132/0.08),transparent)]"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 [background-image:linear-gradient(var(--color-line)_1px,transparent_1px),linear-gradient(90deg,var(--color-line)_1px,transparent_1px)] [background-size:48px_48px] opacity-[0.18] [mask-image:radial-gradient(ellipse_at_top,black,transparent_70%)]"
        />
        <div className="relative mx-auto max-w-6xl px-4 pt-16 pb-12 sm:px-6 sm:pt-24">
          <div className="mx-auto max-w-3xl text-center">
            <span className="inline-flex items-center gap-2 rounded-full border border-line bg-panel/80 px-3 py-1 text-xs text-muted">
              <span className="size-1.5 rounded-full bg-up shadow-[0_0_8px_var(--color-up)]" />
              Spot, perps and bots on Solana
            </span>
            <h1 className="mt-6 text-4xl leading-[1.08] font-semibold tracking-tight sm:text-6xl">
              Trade Solana at{' '}
              <span className="bg-gradient-to-r from-accent to-up bg-clip-text text-transparent">
                terminal speed
              </span>
            </h1>
            <p className="mx-auto mt-5 max-w-xl text-base text-muted sm:text-lg">
              Live prices, token search, on-chain swaps signed in your wallet, perpetual futures and trading
              bots you can backtest first — in one dense, fast terminal.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Link to="/auth?mode=signup" className={buttonClasses({ size: 'lg' })}>
                Start trading
                <ArrowRight className="size-4" />
              </Link>
              <Link to="/wallet-connect" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
                <Wallet className="size-4" />
                Connect wallet
              </Link>
            </div>
          </div>

          <TerminalMock className="mx-auto mt-14 max-w-5xl" />

          <dl className="mx-auto mt-10 grid max-w-4xl grid-cols-2 gap-px overflow-hidden rounded-lg border border-line bg-line sm:grid-cols-4">
            {STATS.map((stat) => (
              <div key={stat.label} className="bg-canvas px-4 py-4 text-center">
                <dt className="sr-only">{stat.label}</dt>
                <dd className="num text-xl font-semibold">{stat.value}</dd>
                <dd className="mt-0.5 text-xs text-muted">{stat.label}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <FeaturedCoinsSection />

      <section id="features" className="scroll-mt-16 border-y border-line bg-panel/40">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <p className="text-xs font-semibold tracking-widest text-accent uppercase">Features</p>
          <h2 className="mt-2 max-w-2xl text-2xl font-semibold tracking-tight sm:text-3xl">
            Everything a Solana trader needs, none of the tab-switching
          </h2>
          <div className="mt-10 grid gap-px overflow-hidden rounded-xl border border-line bg-line sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <div key={title} className="bg-canvas p-6">
                <span className="flex size-9 items-center justify-center rounded-lg border border-line bg-raised text-accent">
                  <Icon className="size-4" />
                </span>
                <h3 className="mt-4 text-sm font-semibold">{title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-muted">{text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section id="get-started" className="mx-auto max-w-6xl scroll-mt-16 px-4 py-20 sm:px-6">
        <div className="relative overflow-hidden rounded-2xl border border-line bg-panel px-6 py-12 text-center sm:px-12">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_center,rgb(139_123_255/0.16),transparent_65%)]"
          />
          <h2 className="relative text-2xl font-semibold tracking-tight sm:text-3xl">
            Ready when the market is
          </h2>
          <p className="relative mx-auto mt-3 max-w-lg text-muted">
            Create a free account or sign in with your wallet. Start on the Free plan — one bot slot and 7-day
            backtests included.
          </p>
          <div className="relative mt-7 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/auth?mode=signup" className={buttonClasses({ size: 'lg' })}>
              Create free account
              <ArrowUpRight className="size-4" />
            </Link>
            <Link to="/auth" className={buttonClasses({ variant: 'outline', size: 'lg' })}>
              I already have an account
            </Link>
          </div>
        </div>
      </section>

      <PublicFooter />
    </div>
  );
}

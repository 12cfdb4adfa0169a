import {
  ArrowLeftRight,
  Bot,
  CandlestickChart,
  CreditCard,
  FlaskConical,
  LayoutDashboard,
  LifeBuoy,
  Store,
  Wallet,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** Sidebar links, in the spec's order (part 1 §2). Logout is rendered after them. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/bots', label: 'Bots', icon: Bot },
  { to: '/trade', label: 'Trade', icon: ArrowLeftRight },
  { to: '/future', label: 'Futures', icon: CandlestickChart },
  { to: '/market', label: 'Marketplace', icon: Store },
  { to: '/backtest', label: 'Backtest', icon: FlaskConical },
  { to: '/earning', label: 'Earnings', icon: Wallet },
  { to: '/sub', label: 'Subscription', icon: CreditCard },
  { to: '/support', label: 'Support/FAQ', icon: LifeBuoy },
];

import { Link } from 'react-router';
import { Brand } from './brand';

/** Footer of the public pages, with the spec's terms and privacy links. */
export function PublicFooter() {
  return (
    <footer className="border-t border-line bg-panel/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-xs">
          <Brand />
          <p className="mt-3 text-xs leading-relaxed text-faint">
            A trading terminal for Solana traders. Trading digital assets carries risk; past performance and
            backtests do not guarantee future results.
          </p>
        </div>
        <div className="grid grid-cols-2 gap-x-12 gap-y-2 text-[13px] sm:grid-cols-3">
          <div className="space-y-2">
            <p className="text-[11px] font-semibold tracking-widest text-faint uppercase">Product</p>
            <Link to="/auth?mode=signup" className="block text-muted hover:text-fg">
              Create account
            </Link>
            <Link to="/wallet-connect" className="block text-muted hover:text-fg">
              Connect wallet
            </Link>
          </div>
          <div className="space-y-2">
            <p className="text-[11px] font-semibold tracking-widest text-faint uppercase">Legal</p>
            <Link to="/terms" className="block text-muted hover:text-fg">
              Terms of Service
            </Link>
            <Link to="/privacy" className="block text-muted hover:text-fg">
              Privacy Policy
            </Link>
          </div>
        </div>
      </div>
      <div className="border-t border-line py-4 text-center text-xs text-faint">
        © {new Date().getFullYear()} solterm. All rights reserved.
      </div>
    </footer>
  );
}

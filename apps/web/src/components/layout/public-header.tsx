import { Link } from 'react-router';
import { buttonClasses } from '../ui/button';
import { useAuth } from '../../features/auth/use-auth';
import { Brand } from './brand';

/** Top bar of the public pages: brand, a few anchors, and login / open-terminal actions. */
export function PublicHeader({ links = [] }: { links?: ReadonlyArray<{ href: string; label: string }> }) {
  const { status } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b border-line/70 bg-canvas/80 backdrop-blur-md">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <Brand />
        <nav className="hidden items-center gap-5 text-[13px] text-muted md:flex" aria-label="Sections">
          {links.map((link) => (
            <a key={link.href} href={link.href} className="transition-colors hover:text-fg">
              {link.label}
            </a>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {status === 'authenticated' ? (
            <Link to="/dashboard" className={buttonClasses({ size: 'sm' })}>
              Open terminal
            </Link>
          ) : (
            <>
              <Link to="/auth" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
                Login
              </Link>
              <Link to="/auth?mode=signup" className={buttonClasses({ size: 'sm' })}>
                Get started
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

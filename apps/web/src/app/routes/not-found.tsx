import { Link } from 'react-router';
import { Compass } from 'lucide-react';
import { AppShell } from '../../components/layout/app-shell';
import { FullPageStatus } from '../../components/layout/full-page-status';
import { PublicFooter } from '../../components/layout/public-footer';
import { PublicHeader } from '../../components/layout/public-header';
import { buttonClasses } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { useAuth } from '../../features/auth/use-auth';

function NotFoundMessage({ homePath }: { homePath: string }) {
  return (
    <EmptyState
      className="min-h-[50vh]"
      icon={<Compass className="size-5" />}
      title="Page not found"
      description="The page you are looking for does not exist or has moved."
      action={
        <Link to={homePath} className={buttonClasses({ size: 'sm' })}>
          {homePath === '/dashboard' ? 'Back to dashboard' : 'Back to home'}
        </Link>
      }
    />
  );
}

/** Unknown paths: the 404 inside the app shell for a signed-in user, on the public frame otherwise. */
export default function NotFoundPage() {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageStatus label="Loading..." />;
  if (status === 'authenticated') {
    return (
      <AppShell>
        <NotFoundMessage homePath="/dashboard" />
      </AppShell>
    );
  }
  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <PublicHeader />
      <main className="flex flex-1 items-center justify-center px-4">
        <NotFoundMessage homePath="/" />
      </main>
      <PublicFooter />
    </div>
  );
}

import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Wallet } from 'lucide-react';
import { AuthLayout } from '../../components/layout/auth-layout';
import { FullPageStatus } from '../../components/layout/full-page-status';
import { Button } from '../../components/ui/button';
import { Divider } from '../../components/ui/divider';
import { TabPanel, Tabs } from '../../components/ui/tabs';
import { LoginForm } from '../../features/auth/components/login-form';
import { SignupForm } from '../../features/auth/components/signup-form';
import { SocialButtons } from '../../features/auth/components/social-buttons';
import { useAuth } from '../../features/auth/use-auth';

type Mode = 'login' | 'signup';

const MODES = [
  { value: 'login', label: 'Login' },
  { value: 'signup', label: 'Sign Up' },
] as const;

/** /auth: login and sign-up with a toggle (?mode=signup opens sign-up), wallet and social sign-in. */
export default function AuthPage() {
  const { status } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const mode: Mode = searchParams.get('mode') === 'signup' ? 'signup' : 'login';
  // A sign-in made on this page redirects after its toast (1 s); only an earlier session redirects at once.
  const [hasSignedInHere, setHasSignedInHere] = useState(false);
  const onSignedIn = () => setHasSignedInHere(true);

  if (status === 'loading') return <FullPageStatus label="Validating authentication..." />;
  if (status === 'authenticated' && !hasSignedInHere) return <Navigate to="/dashboard" replace />;

  const setMode = (next: Mode) =>
    setSearchParams(next === 'signup' ? { mode: 'signup' } : {}, { replace: true });

  return (
    <AuthLayout>
      <div className="mb-6">
        <h1 className="text-2xl font-semibold tracking-tight">
          {mode === 'login' ? 'Welcome back' : 'Create your account'}
        </h1>
        <p className="mt-1 text-sm text-muted">
          {mode === 'login'
            ? 'Log in to your terminal to trade, run bots and backtest.'
            : 'Start trading Solana tokens in a minute. No card required.'}
        </p>
      </div>

      <Tabs
        idBase="auth"
        ariaLabel="Login or sign up"
        value={mode}
        onChange={setMode}
        items={MODES}
        isBlock
      />

      <TabPanel idBase="auth" value={mode} className="mt-5">
        {mode === 'login' ? <LoginForm onSignedIn={onSignedIn} /> : <SignupForm onSignedIn={onSignedIn} />}
      </TabPanel>

      <Divider label="or" className="my-5" />

      <div className="space-y-3">
        <Button variant="outline" size="lg" isBlock onClick={() => void navigate('/wallet-connect')}>
          <Wallet className="size-4 text-accent" />
          Connect with Wallet
        </Button>
        <SocialButtons />
      </div>

      <p className="mt-6 text-center text-sm text-muted">
        {mode === 'login' ? "Don't have an account? " : 'Already have an account? '}
        <button
          type="button"
          onClick={() => setMode(mode === 'login' ? 'signup' : 'login')}
          className="font-medium text-accent hover:underline"
        >
          {mode === 'login' ? 'Sign up' : 'Login'}
        </button>
      </p>
    </AuthLayout>
  );
}

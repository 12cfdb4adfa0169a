import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Mail } from 'lucide-react';
import { AUTH_MESSAGES, REDIRECT_AFTER_LOGIN_MS } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { authApi } from '../api/auth-api';
import { PasswordInput } from './password-input';
import { useAuth } from '../use-auth';

/**
 * Email login (spec part 1 §5): email, password, remember me. On success a toast, the session is
 * stored, and /dashboard follows after 1 s; on failure the server error or 'Login failed'.
 * Used on /auth and in the 'Sign In (Optional)' tab of /wallet-connect.
 */
export function LoginForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { completeLogin } = useAuth();
  const navigateLater = useDelayedNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [isSubmitting, setIsSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsSubmitting(true);
    try {
      const result = await authApi.login({ email: email.trim(), password, remember_me: rememberMe });
      onSignedIn?.();
      completeLogin(result);
      notify.success('Login successful! Redirecting to your dashboard...');
      navigateLater('/dashboard', REDIRECT_AFTER_LOGIN_MS);
    } catch (error) {
      notify.error(getErrorMessage(error, AUTH_MESSAGES.loginFailed));
      setIsSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Login">
      <Input
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        leading={<Mail className="size-4" />}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
      />
      <PasswordInput
        label="Password"
        name="password"
        autoComplete="current-password"
        placeholder="Enter your password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <div className="flex items-center justify-between">
        <Checkbox
          label="Remember me"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        <Link to="/forgot-password" className="text-xs font-medium text-accent hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" size="lg" isBlock isLoading={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Login'}
      </Button>
    </form>
  );
}

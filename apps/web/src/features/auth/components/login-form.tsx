import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AUTH_MESSAGES } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { authApi } from '../api/auth-api';
import { useSignInSubmit } from '../use-sign-in-submit';
import { EmailInput } from './email-input';
import { PasswordInput } from './password-input';

/**
 * Email login (spec part 1 §5): email, password, remember me. On success a toast, the session is
 * stored, and /dashboard follows after 1 s; on failure the server error or 'Login failed'.
 * Used on /auth and in the 'Sign In (Optional)' tab of /wallet-connect.
 */
export function LoginForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { isSubmitting, submit } = useSignInSubmit({
    successMessage: 'Login successful! Redirecting to your dashboard...',
    failureMessage: AUTH_MESSAGES.loginFailed,
    onSignedIn,
  });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit(() => authApi.login({ email: email.trim(), password, remember_me: rememberMe }));
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Login">
      <EmailInput value={email} onChange={(event) => setEmail(event.target.value)} />
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

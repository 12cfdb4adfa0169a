import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AtSign, Mail } from 'lucide-react';
import { AUTH_MESSAGES, REDIRECT_AFTER_LOGIN_MS, VALIDATION_MESSAGES } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { authApi } from '../api/auth-api';
import { useAuth } from '../use-auth';
import { PasswordInput } from './password-input';

/**
 * Sign-up (spec part 1 §5): username, email, password, confirm password, terms. A mismatch and
 * unticked terms are shown as alerts; failures as an error toast (server error or 'Registration failed').
 */
export function SignupForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { completeLogin } = useAuth();
  const navigateLater = useDelayedNavigate();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [hasAgreed, setHasAgreed] = useState(false);
  const [isSubmitting, setIsSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      window.alert(VALIDATION_MESSAGES.passwordsDoNotMatch);
      return;
    }
    if (!hasAgreed) {
      window.alert(VALIDATION_MESSAGES.agreeToTerms);
      return;
    }
    setIsSubmitting(true);
    try {
      const result = await authApi.register({ username: username.trim(), email: email.trim(), password });
      onSignedIn?.();
      completeLogin(result);
      notify.success('Account created! Redirecting to your dashboard...');
      navigateLater('/dashboard', REDIRECT_AFTER_LOGIN_MS);
    } catch (error) {
      notify.error(getErrorMessage(error, AUTH_MESSAGES.registrationFailed));
      setIsSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Sign up">
      <Input
        label="Username"
        name="username"
        autoComplete="username"
        placeholder="satoshi"
        leading={<AtSign className="size-4" />}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        required
      />
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
        autoComplete="new-password"
        placeholder="Create a password"
        hint="At least 8 characters."
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <PasswordInput
        label="Confirm password"
        name="confirmPassword"
        autoComplete="new-password"
        placeholder="Repeat the password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        required
      />
      <Checkbox
        checked={hasAgreed}
        onChange={(event) => setHasAgreed(event.target.checked)}
        label={
          <>
            I agree to the{' '}
            <Link to="/terms" className="text-accent hover:underline">
              Terms and Conditions
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className="text-accent hover:underline">
              Privacy Policy
            </Link>
          </>
        }
      />
      <Button type="submit" size="lg" isBlock isLoading={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}

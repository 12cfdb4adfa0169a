import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AtSign } from 'lucide-react';
import { AUTH_MESSAGES, VALIDATION_MESSAGES } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { authApi } from '../api/auth-api';
import { useSignInSubmit } from '../use-sign-in-submit';
import { EmailInput } from './email-input';
import { PasswordInput } from './password-input';

/**
 * Sign-up (spec part 1 §5): username, email, password, confirm password, terms. A mismatch and
 * unticked terms are shown as alerts; failures as an error toast (server error or 'Registration failed').
 */
export function SignupForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { isSubmitting, submit } = useSignInSubmit({
    successMessage: 'Account created! Redirecting to your dashboard...',
    failureMessage: AUTH_MESSAGES.registrationFailed,
    onSignedIn,
  });
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [hasAgreed, setHasAgreed] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      window.alert(VALIDATION_MESSAGES.passwordsDoNotMatch);
      return;
    }
    if (!hasAgreed) {
      window.alert(VALIDATION_MESSAGES.agreeToTerms);
      return;
    }
    void submit(() => authApi.register({ username: username.trim(), email: email.trim(), password }));
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
      <EmailInput value={email} onChange={(event) => setEmail(event.target.value)} />
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

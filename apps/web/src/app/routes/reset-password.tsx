import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import {
  AUTH_MESSAGES,
  PASSWORD_MIN_LENGTH,
  REDIRECT_AFTER_PASSWORD_RESET_MS,
  VALIDATION_MESSAGES,
} from '@solterm/contracts';
import { AuthLayout } from '../../components/layout/auth-layout';
import { Button, buttonClasses } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { authApi } from '../../features/auth/api/auth-api';
import { PasswordInput } from '../../features/auth/components/password-input';
import { getErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate';

/** /reset-password?token=…: choose a new password, then /auth after 2 s. */
export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const navigateLater = useDelayedNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [isDone, setIsDone] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) return setError(VALIDATION_MESSAGES.passwordsDoNotMatch);
    if (password.length < PASSWORD_MIN_LENGTH) return setError(VALIDATION_MESSAGES.passwordTooShort);
    setError(null);
    setIsSubmitting(true);
    try {
      await authApi.resetPassword({ token, new_password: password });
      setIsDone(true);
      notify.success('Password reset successfully! Redirecting to login...');
      navigateLater('/auth', REDIRECT_AFTER_PASSWORD_RESET_MS);
    } catch (failure) {
      const message = getErrorMessage(failure, AUTH_MESSAGES.resetPasswordFailed);
      setError(message);
      notify.error(message);
      setIsSubmitting(false);
    }
  }

  return (
    <AuthLayout>
      <div className="mb-6 flex size-11 items-center justify-center rounded-xl border border-line bg-raised text-accent">
        <ShieldCheck className="size-5" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Set a new password</h1>
      <p className="mt-1 mb-6 text-sm text-muted">
        Choose a password of at least {PASSWORD_MIN_LENGTH} characters that you do not use elsewhere.
      </p>

      {!token ? (
        <div className="space-y-4">
          <Notice tone="error">{VALIDATION_MESSAGES.invalidResetLink}</Notice>
          <Link
            to="/forgot-password"
            className={buttonClasses({ variant: 'primary', size: 'lg', isBlock: true })}
          >
            Request a new reset link
          </Link>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4" aria-label="Reset password">
          <PasswordInput
            label="New password"
            name="password"
            autoComplete="new-password"
            placeholder="New password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            disabled={isDone}
          />
          <PasswordInput
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            placeholder="Repeat the new password"
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.target.value)}
            required
            disabled={isDone}
          />
          {error && <Notice tone="error">{error}</Notice>}
          {isDone && <Notice tone="success">Your password was changed. Redirecting to login...</Notice>}
          <Button type="submit" size="lg" isBlock isLoading={isSubmitting} disabled={isDone}>
            {isSubmitting ? 'Resetting...' : 'Reset password'}
          </Button>
        </form>
      )}

      <Link
        to="/auth"
        className="mt-6 inline-flex items-center gap-1.5 text-sm font-medium text-muted transition-colors hover:text-fg"
      >
        <ArrowLeft className="size-4" />
        Back to Login
      </Link>
    </AuthLayout>
  );
}

import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { AUTH_MESSAGES, REDIRECT_AFTER_PASSWORD_RESET_MS } from '@solterm/contracts';
import { AuthLayout } from '../../components/layout/auth-layout';
import { Button } from '../../components/ui/button';
import { authApi } from '../../features/auth/api/auth-api';
import { EmailInput } from '../../features/auth/components/email-input';
import { ApiError, isTransportError } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate';

/** The spec's two failure texts: the server's refusal, or anything else going wrong. */
function forgotPasswordErrorMessage(error: unknown): string {
  if (error instanceof ApiError && !isTransportError(error))
    return error.serverMessage ?? AUTH_MESSAGES.resetEmailFailed;
  return AUTH_MESSAGES.genericError;
}

/** /forgot-password: request a reset email, then /otp-verification after 2 s. */
export default function ForgotPasswordPage() {
  const navigateLater = useDelayedNavigate();
  const [email, setEmail] = useState('');
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [isSent, setIsSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsSubmitting(true);
    try {
      await authApi.forgotPassword({ email: email.trim() });
      setIsSent(true);
      notify.success('Password reset instructions sent to your email.');
      navigateLater('/otp-verification', REDIRECT_AFTER_PASSWORD_RESET_MS);
    } catch (error) {
      notify.error(forgotPasswordErrorMessage(error));
      setIsSubmitting(false);
    }
  }

  return (
    <AuthLayout>
      <div className="mb-6 flex size-11 items-center justify-center rounded-xl border border-line bg-raised text-accent">
        <KeyRound className="size-5" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mt-1 mb-6 text-sm text-muted">
        Enter the email you registered with and we will send you instructions to reset it.
      </p>
      <form onSubmit={onSubmit} className="space-y-4" aria-label="Forgot password">
        <EmailInput value={email} onChange={(event) => setEmail(event.target.value)} disabled={isSent} />
        <Button type="submit" size="lg" isBlock isLoading={isSubmitting}>
          {isSent ? 'Email sent' : isSubmitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
      <Link
        to="/login"
        className="mt-6 inline-flex items-center gap-1.5 text-sm font-medium text-muted transition-colors hover:text-fg"
      >
        <ArrowLeft className="size-4" />
        Back to Login
      </Link>
    </AuthLayout>
  );
}

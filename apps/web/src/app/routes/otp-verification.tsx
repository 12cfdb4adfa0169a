import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { OTP_LENGTH, OTP_RESEND_COUNTDOWN_SECONDS, VALIDATION_MESSAGES } from '@solterm/contracts';
import { AuthLayout } from '../../components/layout/auth-layout';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { OtpInput } from '../../features/auth/components/otp-input';
import { formatCountdown, useCountdown } from '../../lib/use-countdown';

const EMPTY_CODE: readonly string[] = Array.from({ length: OTP_LENGTH }, () => '');

/**
 * /otp-verification: six digit boxes, Verify and a 60 s resend countdown. Verification is local
 * only (an alert, no call), as in the spec.
 */
export default function OtpVerificationPage() {
  const navigate = useNavigate();
  const [digits, setDigits] = useState<string[]>([...EMPTY_CODE]);
  const { remaining, restart } = useCountdown(OTP_RESEND_COUNTDOWN_SECONDS);

  function onVerify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = digits.join('');
    if (code.length !== OTP_LENGTH) {
      window.alert(VALIDATION_MESSAGES.incompleteOtp);
      return;
    }
    window.alert(`OTP ${code} verified successfully!`);
  }

  function onResend() {
    setDigits([...EMPTY_CODE]);
    restart();
  }

  return (
    <AuthLayout>
      <div className="mb-6 flex size-11 items-center justify-center rounded-xl border border-line bg-raised text-accent">
        <MailCheck className="size-5" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Check your email</h1>
      <p className="mt-1 mb-4 text-sm text-muted">
        Enter the {OTP_LENGTH}-digit code we sent to your email address.
      </p>
      {/* The reset email sends a link, not a code: say so, or the user waits for digits that never come. */}
      <Notice title="Password reset link sent" aria-label="Password reset link" className="mb-6">
        If you asked to reset your password, the email contains a link: open it to choose a new password.
      </Notice>
      <form onSubmit={onVerify} className="space-y-5" aria-label="Verify code">
        <OtpInput digits={digits} onChange={setDigits} />
        <Button type="submit" size="lg" isBlock>
          Verify
        </Button>
      </form>
      <div className="mt-5 flex items-center justify-between text-sm">
        <Button variant="ghost" size="sm" onClick={() => void navigate('/forgot-password')} className="-ml-3">
          <ArrowLeft className="size-4" />
          Back
        </Button>
        {remaining > 0 ? (
          <p className="text-muted">
            Resend code in{' '}
            <span className="num font-medium text-fg" data-testid="otp-countdown">
              {formatCountdown(remaining)}
            </span>
          </p>
        ) : (
          <Button variant="ghost" size="sm" onClick={onResend} className="-mr-3 text-accent">
            Resend code
          </Button>
        )}
      </div>
    </AuthLayout>
  );
}

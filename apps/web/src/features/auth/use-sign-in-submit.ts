import { useState } from 'react';
import { REDIRECT_AFTER_LOGIN_MS, type TAuthResult } from '@solterm/contracts';
import { getErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate';
import { useAuth } from './use-auth';

/**
 * The shared tail of login and sign-up (spec part 1 §2): call the server, store the session, toast,
 * then /dashboard after 1 s; on failure the server's error or the form's fallback text.
 */
export function useSignInSubmit(options: {
  successMessage: string;
  failureMessage: string;
  onSignedIn?: () => void;
}) {
  const { completeLogin } = useAuth();
  const navigateLater = useDelayedNavigate();
  const [isSubmitting, setIsSubmitting] = useState(false);

  async function submit(request: () => Promise<TAuthResult>): Promise<void> {
    setIsSubmitting(true);
    try {
      const result = await request();
      options.onSignedIn?.();
      completeLogin(result);
      notify.success(options.successMessage);
      navigateLater('/dashboard', REDIRECT_AFTER_LOGIN_MS);
    } catch (error) {
      notify.error(getErrorMessage(error, options.failureMessage));
      setIsSubmitting(false);
    }
  }

  return { isSubmitting, submit };
}

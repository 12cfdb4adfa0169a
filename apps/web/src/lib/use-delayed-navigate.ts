import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * Navigates after a delay (the spec's 1 s after login, 2 s after a password reset); the pending
 * navigation is dropped if the component unmounts first.
 */
export function useDelayedNavigate(): (to: string, delayMs: number) => void {
  const navigate = useNavigate();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(
    (to: string, delayMs: number) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void navigate(to), delayMs);
    },
    [navigate],
  );
}

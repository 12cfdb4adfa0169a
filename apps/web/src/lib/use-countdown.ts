import { useCallback, useEffect, useState } from 'react';

/** Seconds left of a countdown that ticks once a second down to 0; `restart` starts it again. */
export function useCountdown(seconds: number): { remaining: number; restart: () => void } {
  const [remaining, setRemaining] = useState(seconds);
  const isRunning = remaining > 0;

  useEffect(() => {
    if (!isRunning) return;
    const timer = window.setInterval(() => setRemaining((left) => Math.max(0, left - 1)), 1000);
    return () => window.clearInterval(timer);
  }, [isRunning]);

  const restart = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, restart };
}

/** Seconds as MM:SS, e.g. 59 → '00:59'. */
export function formatCountdown(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

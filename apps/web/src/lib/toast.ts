import { toast } from 'sonner';
import {
  TOAST_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_SUCCESS_DURATION_MS,
  TOAST_SUPPRESSION_MS,
} from '@solterm/contracts';

type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface NotifyOptions {
  /** A second, smaller line (e.g. a transaction hash). */
  description?: string;
}

const lastShownAt = new Map<string, number>();

/** Forgets the toasts shown, so the next identical one shows (tests: each test starts with none). */
export function forgetShownToasts(): void {
  lastShownAt.clear();
}

function show(kind: ToastKind, message: string, options?: NotifyOptions): void {
  const now = Date.now();
  for (const [key, at] of lastShownAt) {
    if (now - at >= TOAST_SUPPRESSION_MS) lastShownAt.delete(key);
  }
  // Identical toasts (same kind and text) within the window show once (spec part 1 §4).
  const key = `${kind}\u0000${message}`;
  if (lastShownAt.has(key)) return;
  lastShownAt.set(key, now);

  // 3 s success, 5 s error, 4 s otherwise (spec part 1 §8).
  const duration =
    kind === 'success'
      ? TOAST_SUCCESS_DURATION_MS
      : kind === 'error'
        ? TOAST_ERROR_DURATION_MS
        : TOAST_DURATION_MS;
  toast[kind](message, { duration, description: options?.description });
}

/**
 * The app's toasts (sonner, top-right). Use these rather than sonner directly so durations and
 * suppression stay the spec's.
 *
 * @example notify.success('Login successful!');
 */
export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
  warning: (message: string, options?: NotifyOptions) => show('warning', message, options),
};

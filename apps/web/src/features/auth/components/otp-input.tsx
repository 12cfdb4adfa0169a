import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn';

/**
 * One box per digit (spec part 1 §5): digits only, typing moves to the next box, Backspace on an
 * empty box moves back, pasting fills the boxes from the focused one on.
 */
export function OtpInput({
  digits,
  onChange,
  isDisabled = false,
}: {
  /** One entry per box: a single digit or ''. */
  digits: readonly string[];
  onChange: (digits: string[]) => void;
  isDisabled?: boolean;
}) {
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const focusBox = (index: number) => boxes.current[Math.max(0, Math.min(digits.length - 1, index))]?.focus();

  function fillFrom(index: number, text: string) {
    const incoming = text.replace(/\D/g, '').split('');
    if (incoming.length === 0) return;
    const next = [...digits];
    incoming.slice(0, digits.length - index).forEach((digit, offset) => (next[index + offset] = digit));
    onChange(next);
    focusBox(index + incoming.length);
  }

  function onInput(index: number, value: string) {
    const digit = value.replace(/\D/g, '').slice(-1);
    if (value !== '' && digit === '') return; // not a digit: ignore
    if (value.replace(/\D/g, '').length > 1) return fillFrom(index, value);
    const next = [...digits];
    next[index] = digit;
    onChange(next);
    if (digit) focusBox(index + 1);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      const next = [...digits];
      next[index - 1] = '';
      onChange(next);
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft') {
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      focusBox(index + 1);
    }
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    fillFrom(index, event.clipboardData.getData('text'));
  }

  return (
    <div className="flex justify-between gap-2" role="group" aria-label="One-time code">
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
          }}
          value={digit}
          onChange={(event) => onInput(index, event.target.value)}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={(event) => onPaste(index, event)}
          onFocus={(event) => event.target.select()}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          maxLength={digits.length}
          aria-label={`Digit ${index + 1}`}
          disabled={isDisabled}
          className={cn(
            'num size-12 rounded-lg border bg-canvas text-center text-xl font-semibold text-fg transition-colors sm:size-14',
            'focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none',
            digit ? 'border-line-strong' : 'border-line',
          )}
        />
      ))}
    </div>
  );
}

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface SegmentedOption<V extends string> {
  value: V;
  label: ReactNode;
  /** Accessible name when the label is not plain text. */
  ariaLabel?: string;
  /** Classes of the option while selected (e.g. green for Buy); default a raised pill. */
  activeClassName?: string;
  disabled?: boolean;
}

/**
 * A choice of one among a few options shown side by side (Buy | Sell, Market | Limit, presets):
 * a radio group, arrow keys move the choice.
 *
 * @example
 * <SegmentedControl ariaLabel="Side" value={side} onChange={setSide}
 *   options={[{ value: 'Buy', label: 'Buy' }, { value: 'Sell', label: 'Sell' }]} />
 */
export function SegmentedControl<V extends string>({
  value,
  onChange,
  options,
  ariaLabel,
  size = 'md',
  isBlock = false,
  className,
}: {
  value: V;
  onChange: (value: V) => void;
  options: readonly SegmentedOption<V>[];
  ariaLabel: string;
  size?: 'xs' | 'sm' | 'md';
  isBlock?: boolean;
  className?: string;
}) {
  const groupRef = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step === 0) return;
    const enabled = options.filter((option) => !option.disabled);
    const index = enabled.findIndex((option) => option.value === value);
    const next = enabled[(index + step + enabled.length) % enabled.length];
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    groupRef.current?.querySelector<HTMLButtonElement>(`[data-value="${next.value}"]`)?.focus();
  }

  return (
    <div
      ref={groupRef}
      role="radiogroup"
      aria-label={ariaLabel}
      onKeyDown={onKeyDown}
      className={cn(
        'flex gap-0.5 rounded-md border border-line bg-canvas p-0.5',
        isBlock ? 'w-full' : 'w-fit',
        className,
      )}
    >
      {options.map((option) => {
        const isActive = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={isActive}
            aria-label={option.ariaLabel}
            tabIndex={isActive ? 0 : -1}
            disabled={option.disabled}
            data-value={option.value}
            onClick={() => onChange(option.value)}
            className={cn(
              'inline-flex items-center justify-center rounded font-medium whitespace-nowrap transition-colors',
              'disabled:cursor-not-allowed disabled:opacity-40',
              size === 'xs' && 'h-6 px-2 text-[11px]',
              size === 'sm' && 'h-7 px-2.5 text-xs',
              size === 'md' && 'h-8 px-3 text-[13px]',
              isBlock && 'flex-1',
              isActive
                ? (option.activeClassName ?? 'bg-raised text-fg shadow-sm ring-1 ring-line-strong')
                : 'text-muted hover:bg-hover/60 hover:text-fg',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}

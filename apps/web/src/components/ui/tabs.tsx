import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
}

/**
 * Controlled tab list (WAI-ARIA tabs: arrow keys move between tabs). Render the active panel yourself,
 * wrapped in {@link TabPanel} with the same `idBase` so tab and panel are linked.
 *
 * @example
 * const [tab, setTab] = useState<'wallet' | 'signin'>('wallet');
 * <Tabs idBase="connect" value={tab} onChange={setTab} items={[{ value: 'wallet', label: 'Wallet' }, { value: 'signin', label: 'Sign In (Optional)' }]} />
 * <TabPanel idBase="connect" value={tab}>...</TabPanel>
 */
export function Tabs<V extends string>({
  value,
  onChange,
  items,
  variant = 'segmented',
  size = 'md',
  isBlock = false,
  idBase,
  ariaLabel,
  className,
}: {
  value: V;
  onChange: (value: V) => void;
  items: readonly TabItem<V>[];
  /** segmented: pill buttons in a tray; underline: text tabs with an accent bar. */
  variant?: 'segmented' | 'underline';
  size?: 'sm' | 'md';
  isBlock?: boolean;
  idBase?: string;
  ariaLabel?: string;
  className?: string;
}) {
  const autoId = useId();
  const base = idBase ?? autoId;
  const listRef = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const enabled = items.filter((item) => !item.disabled);
    const index = enabled.findIndex((item) => item.value === value);
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next = enabled[(index + step + enabled.length) % enabled.length];
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-value="${next.value}"]`)?.focus();
  }

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={ariaLabel}
      onKeyDown={onKeyDown}
      className={cn(
        'flex',
        variant === 'segmented'
          ? 'gap-1 rounded-lg border border-line bg-canvas p-1'
          : 'gap-4 border-b border-line',
        isBlock ? 'w-full' : 'w-fit max-w-full overflow-x-auto',
        className,
      )}
    >
      {items.map((item) => {
        const isActive = item.value === value;
        return (
          <button
            key={item.value}
            type="button"
            role="tab"
            id={`${base}-tab-${item.value}`}
            aria-controls={`${base}-panel-${item.value}`}
            aria-selected={isActive}
            tabIndex={isActive ? 0 : -1}
            disabled={item.disabled}
            data-value={item.value}
            onClick={() => onChange(item.value)}
            className={cn(
              'inline-flex items-center justify-center gap-1.5 font-medium whitespace-nowrap transition-colors',
              'disabled:cursor-not-allowed disabled:opacity-40',
              size === 'sm' ? 'text-xs' : 'text-[13px]',
              isBlock && 'flex-1',
              variant === 'segmented'
                ? cn(
                    'rounded-md',
                    size === 'sm' ? 'h-7 px-2.5' : 'h-8 px-3',
                    isActive
                      ? 'bg-raised text-fg shadow-sm ring-1 ring-line-strong'
                      : 'text-muted hover:text-fg',
                  )
                : cn(
                    '-mb-px border-b-2 pb-2',
                    isActive ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg',
                  ),
            )}
          >
            {item.icon}
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel of the active tab; pass the same `idBase` and the active `value` as the {@link Tabs}. */
export function TabPanel({
  idBase,
  value,
  children,
  className,
}: {
  idBase: string;
  value: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="tabpanel"
      id={`${idBase}-panel-${value}`}
      aria-labelledby={`${idBase}-tab-${value}`}
      className={className}
    >
      {children}
    </div>
  );
}

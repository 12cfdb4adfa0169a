import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cn } from '../../lib/cn';

/** Shared look of text-like controls (input, select, textarea). */
export const CONTROL_CLASSES = cn(
  'w-full rounded-md border border-line bg-canvas text-fg placeholder:text-faint',
  'transition-colors hover:border-line-strong focus:border-accent focus:outline-none',
  'disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-raised read-only:text-muted',
  'aria-invalid:border-down',
);

export function Label({
  htmlFor,
  children,
  className,
}: {
  htmlFor?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <label htmlFor={htmlFor} className={cn('mb-1.5 block text-xs font-medium text-muted', className)}>
      {children}
    </label>
  );
}

export interface FieldProps {
  /** Visible label above the control. */
  label?: ReactNode;
  /** Muted helper text under the control. */
  hint?: ReactNode;
  /** Error text under the control; also marks the control aria-invalid. */
  error?: ReactNode;
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement>, FieldProps {
  /** An icon or text inside the left edge. */
  leading?: ReactNode;
  /** An element inside the right edge (unit, button). */
  trailing?: ReactNode;
  /** Wrapper class (the input itself takes `className`). */
  containerClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/** Text input with optional label, hint, error and leading/trailing adornments. */
export function Input({
  label,
  hint,
  error,
  leading,
  trailing,
  id,
  className,
  containerClassName,
  ...rest
}: InputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <div className={containerClassName}>
      {label && <Label htmlFor={inputId}>{label}</Label>}
      <div className="relative">
        {leading && (
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-faint">
            {leading}
          </span>
        )}
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            CONTROL_CLASSES,
            'h-9 px-3 text-sm',
            Boolean(leading) && 'pl-9',
            Boolean(trailing) && 'pr-10',
            className,
          )}
          {...rest}
        />
        {trailing && (
          <span className="absolute inset-y-0 right-2 flex items-center text-muted">{trailing}</span>
        )}
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="mt-1 text-xs text-down">
          {error}
        </p>
      ) : hint ? (
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-faint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

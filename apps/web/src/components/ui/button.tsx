import type { ButtonHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/cn';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'outline' | 'danger' | 'buy' | 'sell';
export type ButtonSize = 'xs' | 'sm' | 'md' | 'lg';

const VARIANT_CLASSES: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-accent-fg hover:bg-accent-strong',
  secondary: 'bg-raised text-fg border border-line hover:bg-hover hover:border-line-strong',
  ghost: 'text-muted hover:text-fg hover:bg-hover',
  outline: 'border border-line-strong text-fg hover:bg-hover',
  danger: 'bg-down/90 text-white hover:bg-down',
  buy: 'bg-up text-[#04150e] hover:brightness-110',
  sell: 'bg-down text-white hover:brightness-110',
};

const SIZE_CLASSES: Record<ButtonSize, string> = {
  xs: 'h-7 px-2 text-xs gap-1',
  sm: 'h-8 px-3 text-[13px] gap-1.5',
  md: 'h-9 px-3.5 text-sm gap-2',
  lg: 'h-11 px-5 text-[15px] gap-2',
};

/**
 * Class list of a button, for elements that look like one (a router Link, an <a>).
 *
 * @example <Link to="/auth" className={buttonClasses({ variant: 'primary' })}>Get started</Link>
 */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  isBlock = false,
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; isBlock?: boolean; className?: string } = {}): string {
  return cn(
    'inline-flex items-center justify-center rounded-md font-medium whitespace-nowrap select-none',
    'transition-[background-color,border-color,color,filter] duration-150',
    'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
    VARIANT_CLASSES[variant],
    SIZE_CLASSES[size],
    isBlock && 'w-full',
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button. */
  isLoading?: boolean;
  /** Stretches to the container width. */
  isBlock?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** The one button of the app. `type` defaults to "button" so a button inside a form never submits by accident. */
export function Button({
  variant,
  size,
  isLoading = false,
  isBlock,
  className,
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, isBlock, className })}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      {...rest}
    >
      {isLoading && <Spinner size="sm" />}
      {children}
    </button>
  );
}

import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A dense data table that scrolls sideways on narrow screens. */
export function Table({ className, children, ...rest }: HTMLAttributes<HTMLTableElement>) {
  // relative: absolutely positioned content (sr-only header labels) stays inside the scroll box
  // instead of widening the page on phones.
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full border-collapse text-left text-[13px]', className)} {...rest}>
        {children}
      </table>
    </div>
  );
}

export function THead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-line text-[11px] tracking-wide text-faint uppercase">{children}</thead>
  );
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-line/70">{children}</tbody>;
}

export function Tr({ className, children, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return (
    <tr className={cn('transition-colors hover:bg-hover/50', className)} {...rest}>
      {children}
    </tr>
  );
}

/** Header cell; `isNumeric` right-aligns (numbers line up by their last digit). */
export function Th({
  isNumeric,
  className,
  children,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { isNumeric?: boolean }) {
  return (
    <th
      scope="col"
      className={cn('px-3 py-2 font-medium whitespace-nowrap', isNumeric && 'text-right', className)}
      {...rest}
    >
      {children}
    </th>
  );
}

/** Body cell; `isNumeric` right-aligns with tabular figures. */
export function Td({
  isNumeric,
  className,
  children,
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & { isNumeric?: boolean }) {
  return (
    <td className={cn('px-3 py-2.5 whitespace-nowrap', isNumeric && 'num text-right', className)} {...rest}>
      {children}
    </td>
  );
}

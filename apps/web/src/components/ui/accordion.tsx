import { useId, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '../../lib/cn';

export interface AccordionItem {
  id: string;
  title: ReactNode;
  content: ReactNode;
}

/** A list of expandable rows with at most one open at a time; opening one closes the other. */
export function Accordion({
  items,
  defaultOpenId = null,
  className,
}: {
  items: readonly AccordionItem[];
  defaultOpenId?: string | null;
  className?: string;
}) {
  const baseId = useId();
  const [openId, setOpenId] = useState<string | null>(defaultOpenId);
  return (
    <div className={cn('divide-y divide-line rounded-panel border border-line bg-panel', className)}>
      {items.map((item) => {
        const isOpen = item.id === openId;
        const buttonId = `${baseId}-${item.id}-button`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div key={item.id}>
            <h3>
              <button
                type="button"
                id={buttonId}
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => setOpenId(isOpen ? null : item.id)}
                className="flex w-full items-center justify-between gap-4 px-4 py-3.5 text-left text-sm font-medium transition-colors hover:bg-hover/50"
              >
                {item.title}
                <ChevronDown
                  aria-hidden="true"
                  className={cn(
                    'size-4 shrink-0 text-faint transition-transform duration-200',
                    isOpen && 'rotate-180 text-accent',
                  )}
                />
              </button>
            </h3>
            {isOpen && (
              <div
                id={panelId}
                role="region"
                aria-labelledby={buttonId}
                className="px-4 pb-4 text-sm leading-relaxed text-muted"
              >
                {item.content}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

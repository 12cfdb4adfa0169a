import type { ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';

/** A long-form public page (terms, privacy): readable column, numbered sections. */
export function DocumentLayout({
  title,
  updated,
  intro,
  children,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-canvas">
      <PublicHeader />
      <main className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <p className="text-xs font-semibold tracking-widest text-accent uppercase">Legal</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-faint">Last updated {updated}</p>
        <div className="mt-6 text-[15px] leading-relaxed text-muted">{intro}</div>
        <div className="mt-10 space-y-9">{children}</div>
      </main>
      <PublicFooter />
    </div>
  );
}

/** One numbered section of a {@link DocumentLayout}. */
export function DocumentSection({
  number,
  title,
  children,
}: {
  number: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`section-${number}`}>
      <h2 id={`section-${number}`} className="text-lg font-semibold text-fg">
        <span className="num mr-2 text-faint">{number}.</span>
        {title}
      </h2>
      <div className="mt-3 space-y-3 text-[15px] leading-relaxed text-muted [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_ul]:space-y-1.5">
        {children}
      </div>
    </section>
  );
}

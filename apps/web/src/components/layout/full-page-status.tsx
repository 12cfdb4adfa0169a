import { Spinner } from '../ui/spinner';

/** A whole-screen status line with a spinner: session checks, page chunks loading. */
export function FullPageStatus({ label }: { label: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-canvas">
      <Spinner size="lg" label={label} isLabelVisible />
    </div>
  );
}

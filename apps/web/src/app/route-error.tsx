import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { AlertTriangle, RefreshCw, WifiOff } from 'lucide-react';
import { Button, buttonClasses } from '../components/ui/button';
import { ChunkLoadTimeoutError, isChunkLoadError } from './chunk-loading';

/** What a route shows when its code fails to load or it throws while rendering. */
export function RouteErrorPage() {
  const error = useRouteError();
  const isChunkError = isChunkLoadError(error);
  const title = isChunkError ? 'This page could not be loaded' : 'Something went wrong';
  const description =
    error instanceof ChunkLoadTimeoutError
      ? 'Loading the page took longer than 120 seconds. Check your connection and reload.'
      : isChunkError
        ? 'The page’s code could not be downloaded — the app may have been updated, or the connection dropped. Reload to get the latest version.'
        : isRouteErrorResponse(error)
          ? `${error.status} ${error.statusText}`
          : error instanceof Error
            ? error.message
            : 'An unexpected error occurred.';

  return (
    <div role="alert" className="flex min-h-[60vh] items-center justify-center p-6">
      <div className="w-full max-w-md rounded-panel border border-line bg-panel p-6 text-center">
        <div className="mx-auto mb-4 flex size-11 items-center justify-center rounded-full border border-down/30 bg-down-soft text-down">
          {isChunkError ? <WifiOff className="size-5" /> : <AlertTriangle className="size-5" />}
        </div>
        <h1 className="text-lg font-semibold">{title}</h1>
        <p className="mt-2 text-sm text-muted">{description}</p>
        <div className="mt-5 flex justify-center gap-2">
          <Button onClick={() => window.location.reload()}>
            <RefreshCw className="size-4" />
            Reload page
          </Button>
          <Link to="/" className={buttonClasses({ variant: 'secondary' })}>
            Go home
          </Link>
        </div>
      </div>
    </div>
  );
}

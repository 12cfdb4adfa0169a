import { CHUNK_LOAD_TIMEOUT_MS } from '@solterm/contracts';

/** A page's code did not arrive in time. */
export class ChunkLoadTimeoutError extends Error {
  override readonly name = 'ChunkLoadTimeoutError';
  constructor() {
    super('The page took too long to load.');
  }
}

/** Rejects with {@link ChunkLoadTimeoutError} when `load` has not settled within `timeoutMs`. */
export function withChunkTimeout<T>(load: Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError()), timeoutMs);
    load.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** True for errors of loading a page's code: our time-out or the browser's failed dynamic import. */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadTimeoutError) return true;
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|importing a module script failed|error loading dynamically|loading chunk/i.test(
    error.message,
  );
}

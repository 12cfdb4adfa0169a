import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Catches a render error below it and shows `fallback` instead; `reset` renders the children again.
 *
 * @example
 * <ErrorBoundary fallback={(reset) => <Button onClick={reset}>Try Again</Button>}>
 *   <Calculator />
 * </ErrorBoundary>
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fallback: (reset: () => void, error: unknown) => ReactNode },
  { error: unknown; hasError: boolean }
> {
  override state = { error: null as unknown, hasError: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A widget crashed', error, info.componentStack);
  }

  reset = (): void => this.setState({ error: null, hasError: false });

  override render(): ReactNode {
    return this.state.hasError ? this.props.fallback(this.reset, this.state.error) : this.props.children;
  }
}

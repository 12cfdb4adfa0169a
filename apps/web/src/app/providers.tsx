import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { AuthProvider, type NavigateFn } from '../features/auth/auth-provider';
import { WalletProvider } from '../features/wallet/wallet-provider';
import { createQueryClient } from '../lib/query-client';

/**
 * Everything around the router: the query cache, the session (which navigates through the data
 * router's `navigate`), the wallet (inside the session so it can read the user), and the toasts.
 */
export function AppProviders({ children, navigate }: { children: ReactNode; navigate: NavigateFn }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider navigate={navigate}>
        <WalletProvider>{children}</WalletProvider>
      </AuthProvider>
      <Toaster
        position="top-right"
        theme="dark"
        richColors
        closeButton
        toastOptions={{ className: 'font-sans' }}
      />
    </QueryClientProvider>
  );
}

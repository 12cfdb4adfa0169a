import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  success,
  ZFundWalletRequestSchema,
  ZFundWalletResultSchema,
  ZSolanaBalanceSchema,
  ZWalletBalanceSchema,
  ZWalletStatusSchema,
} from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { WalletService } from './wallet.service';

export interface WalletRoutesDeps {
  wallet: WalletService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Wallet and chain reads of the signed-in user's connected wallet, and the localnet faucet. */
export function registerWalletRoutes(app: ZodApp, deps: WalletRoutesDeps): void {
  const { wallet, requireAuth } = deps;
  const tags = ['wallet'];
  const security = [{ bearerAuth: [] }];

  app.get('/api/wallet/status', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Whether a wallet is connected, its type, and whether it can sign trades',
      response: { 200: success(ZWalletStatusSchema) },
    },
    handler: async (request) => ok(wallet.status(authOf(request).user)),
  });

  for (const url of ['/api/wallet/solana-balance', '/api/solana/balance']) {
    app.get(url, {
      preHandler: requireAuth,
      schema: {
        tags,
        security,
        summary: "The connected Solana wallet's SOL balance, read from the chain",
        response: { 200: success(ZSolanaBalanceSchema) },
      },
      handler: async (request) => ok(await wallet.solanaBalance(authOf(request).user)),
    });
  }

  app.get('/api/wallet/balance', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'SOL, BTC, ETH, USDC and USDT balances from the chain, with their total USD value',
      response: { 200: success(ZWalletBalanceSchema) },
    },
    handler: async (request) => ok(await wallet.balance(authOf(request).user)),
  });

  app.post('/api/wallet/fund', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Faucet (test networks only): airdrop up to 10 SOL to the connected wallet, confirmed',
      body: ZFundWalletRequestSchema,
      response: { 200: success(ZFundWalletResultSchema) },
    },
    handler: async (request) => ok(await wallet.fund(authOf(request).user, request.body.amount_sol)),
  });
}

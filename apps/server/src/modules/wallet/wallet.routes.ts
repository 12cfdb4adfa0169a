import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  success,
  ZFundWalletWithUsdcRequestSchema,
  ZFundWalletWithUsdcResultSchema,
  ZPortfolioQuerySchema,
  ZPortfolioSchema,
  ZSolanaBalanceSchema,
  ZSolTransferRequestSchema,
  ZTokenBalanceParamsSchema,
  ZTokenBalanceQuerySchema,
  ZTokenBalanceSchema,
  ZTokenTransferRequestSchema,
  ZTransferTransactionSchema,
  ZUnwrapTransactionSchema,
  ZWalletBalanceSchema,
  ZWalletStatusSchema,
  ZPendingTransactionSchema,
} from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import { ZIdempotencyHeadersSchema } from '../relay/relay.service';
import type { WalletService } from './wallet.service';

export interface WalletRoutesDeps {
  wallet: WalletService;
  requireAuth: preHandlerAsyncHookHandler;
}

/**
 * Wallet and chain reads of the signed-in user's connected wallet, the localnet faucet, and transfers
 * built for the wallet to sign (sent through POST /trading/execute-signed-transaction).
 */
export function registerWalletRoutes(app: ZodApp, deps: WalletRoutesDeps): void {
  registerWalletReadRoutes(app, deps);
  registerWalletTransferRoutes(app, deps);
}

const tags = ['wallet'];
const security = [{ bearerAuth: [] }];

/** The connected wallet's status and balances, read from the chain. */
function registerWalletReadRoutes(app: ZodApp, deps: WalletRoutesDeps): void {
  const { wallet, requireAuth } = deps;

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

  app.get('/api/wallet/portfolio', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'SOL and every SPL token the connected wallet holds, from the chain, valued in USD',
      description:
        'wallet_address is optional; when given it must be the connected wallet. Native SOL is sol_balance; tokens lists SPL tokens (wrapped SOL included), largest value first.',
      querystring: ZPortfolioQuerySchema,
      response: { 200: success(ZPortfolioSchema) },
    },
    handler: async (request) =>
      ok(await wallet.portfolio(authOf(request).user, request.query.wallet_address)),
  });

  app.get('/api/wallet/token-balance/:a/:b', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'One SPL token balance of the connected wallet (a), by mint address or symbol (b)',
      params: ZTokenBalanceParamsSchema,
      response: { 200: success(ZTokenBalanceSchema) },
    },
    handler: async (request) =>
      ok(await wallet.tokenBalance(authOf(request).user, request.params.a, request.params.b)),
  });

  app.get('/api/solana/token-balance', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'One SPL token balance of the connected wallet, by mint address (or symbol)',
      querystring: ZTokenBalanceQuerySchema,
      response: { 200: success(ZTokenBalanceSchema) },
    },
    handler: async (request) =>
      ok(await wallet.tokenBalance(authOf(request).user, undefined, request.query.mint_address)),
  });
}

/** The faucet, and transfers and unwraps built for the wallet to sign. */
function registerWalletTransferRoutes(app: ZodApp, deps: WalletRoutesDeps): void {
  const { wallet, requireAuth } = deps;

  app.post('/api/wallet/fund', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        'Faucet (test networks only): airdrop up to 10 SOL and, on the embedded cluster, mint up to 100,000 USDC to the connected wallet, confirmed',
      description:
        'An Idempotency-Key header makes retries safe: the same key and body answer the first outcome and never fund twice. When the USDC mint was sent but its outcome is not known yet, the answer is 202 pending with its signature (GET /api/transactions/{signature}).',
      headers: ZIdempotencyHeadersSchema,
      body: ZFundWalletWithUsdcRequestSchema,
      response: { 200: success(ZFundWalletWithUsdcResultSchema), 202: success(ZPendingTransactionSchema) },
    },
    handler: async (request, reply) => {
      const answer = await wallet.fund(
        authOf(request).user,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  });

  for (const url of ['/api/wallet/transfer', '/api/solana/transfer']) {
    app.post(url, {
      preHandler: requireAuth,
      schema: {
        tags,
        security,
        summary:
          'An unsigned SOL transfer from the connected wallet, to sign and send via execute-signed-transaction',
        body: ZSolTransferRequestSchema,
        response: { 200: success(ZTransferTransactionSchema) },
      },
      handler: async (request) => ok(await wallet.transferSol(authOf(request).user, request.body)),
    });
  }

  app.post('/api/wallet/unwrap-sol', {
    preHandler: requireAuth,
    config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    schema: {
      tags,
      security,
      summary:
        "Unwraps the connected wallet's wrapped SOL: the unsigned SPL closeAccount of its wrapped-SOL account (its SOL and rent come back), to sign and send via execute-signed-transaction",
      response: { 200: success(ZUnwrapTransactionSchema) },
    },
    handler: async (request) => ok(await wallet.unwrapSol(authOf(request).user)),
  });

  app.post('/api/solana/transfer-token', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        "An unsigned SPL token transfer (creating the recipient's token account if needed), to sign and send via execute-signed-transaction",
      body: ZTokenTransferRequestSchema,
      response: { 200: success(ZTransferTransactionSchema) },
    },
    handler: async (request) => ok(await wallet.transferToken(authOf(request).user, request.body)),
  });
}

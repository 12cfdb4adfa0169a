import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZBotBalanceSchema,
  ZBotPublicKeySchema,
  ZBotWithdrawRequestSchema,
  ZBotWithdrawResultSchema,
  ZDelegationCreateRequestSchema,
  ZDelegationIdParamsSchema,
  ZDelegationRevokeQuerySchema,
  ZDelegationSchema,
  ZDelegationSubmitRequestSchema,
  ZDelegationSubmitResultSchema,
  ZDelegationTransactionRequestSchema,
  ZPendingTransactionSchema,
} from '@solterm/contracts';
import { Dec, toBaseUnits } from '@solterm/engine';
import { ok } from '../../../lib/reply';
import type { ZodApp } from '../../../lib/zod-app';
import { authOf } from '../../../plugins/authenticate';
import { ZIdempotencyHeadersSchema } from '../../relay/relay.service';
import type { BotFundsService } from './bot-funds.service';

/** Each builds or sends a transaction: each client may do this many a minute. */
export const FUNDS_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

interface BotFundsRoutesDeps {
  funds: BotFundsService;
  requireAuth: preHandlerAsyncHookHandler;
}

const tags = ['bot funds'];
const security = [{ bearerAuth: [] }];
const limited = { rateLimit: FUNDS_RATE_LIMIT };

/** The caller's bot key, its funds and delegations (part 2 §7 "Bot funds and delegation"). */
export function registerBotFundsRoutes(app: ZodApp, deps: BotFundsRoutesDeps): void {
  registerBotKeyRoutes(app, deps);
  registerDelegationRoutes(app, deps);
}

/** The bot key: its address, what it holds, and withdrawals to the connected wallet. */
function registerBotKeyRoutes(app: ZodApp, deps: BotFundsRoutesDeps): void {
  const { funds, requireAuth } = deps;

  app.get('/api/bot/public-key', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s bot key: the address on-chain bots trade from (the server holds it, encrypted)',
      response: { 200: success(ZBotPublicKeySchema) },
    },
    handler: async (request) => ok({ bot_public_key: await funds.publicKey(authOf(request).user) }),
  });

  app.get('/api/bot/balance', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'What the bot holds (SOL, tokens) and the wrapped SOL it may still draw under your approval',
      response: { 200: success(ZBotBalanceSchema) },
    },
    handler: async (request) => ok(await funds.balance(authOf(request).user)),
  });

  app.post('/api/bot/withdraw', {
    preHandler: requireAuth,
    config: limited,
    schema: {
      tags,
      security,
      summary:
        'Sends SOL (or, with token_mint, a token the bot holds) from the bot to your connected wallet, the only destination; keeps 0.00089 SOL',
      description:
        'An Idempotency-Key header makes retries safe: the same key and body answer the first outcome and never pay twice. When the transfer was sent but its outcome is not known yet, the answer is 202 pending with its signature (GET /api/transactions/{signature}).',
      headers: ZIdempotencyHeadersSchema,
      body: ZBotWithdrawRequestSchema,
      response: { 200: success(ZBotWithdrawResultSchema), 202: success(ZPendingTransactionSchema) },
    },
    handler: async (request, reply) => {
      const answer = await funds.withdraw(
        authOf(request).user,
        request.body.amount,
        request.body.token_mint,
        request.headers['idempotency-key'],
      );
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  });
}

/** Delegations: create (two spellings), submit the signed transaction, list, revoke. */
function registerDelegationRoutes(app: ZodApp, deps: BotFundsRoutesDeps): void {
  const { funds, requireAuth } = deps;

  app.post('/api/delegation/create', {
    preHandler: requireAuth,
    config: limited,
    schema: {
      tags,
      security,
      summary: 'A delegation of `amount` SOL (0.1–100) with the transaction your wallet signs',
      body: ZDelegationCreateRequestSchema,
      response: { 200: success(ZDelegationSchema) },
    },
    handler: async (request) =>
      ok(await funds.createDelegation(authOf(request).user, toBaseUnits(new Dec(request.body.amount), 9))),
  });

  app.post('/api/delegation/create-transaction', {
    preHandler: requireAuth,
    config: limited,
    schema: {
      tags,
      security,
      summary: 'The same, spelled out: your wallet, wrapped SOL, lamports and your bot key (all checked)',
      body: ZDelegationTransactionRequestSchema,
      response: { 200: success(ZDelegationSchema) },
    },
    handler: async (request) => {
      const owner = authOf(request).user;
      await funds.checkDelegationRequest(owner, request.body);
      return ok(await funds.createDelegation(owner, BigInt(request.body.amount)));
    },
  });

  app.post('/api/delegation/submit', {
    preHandler: requireAuth,
    config: limited,
    schema: {
      tags,
      security,
      summary: 'Executes the signed approval (or revocation) of a delegation through the relay',
      body: ZDelegationSubmitRequestSchema,
      response: { 200: success(ZDelegationSubmitResultSchema) },
    },
    handler: async (request) =>
      ok(
        await funds.submitDelegation(
          authOf(request).user,
          request.body.delegation_id,
          request.body.signed_transaction,
        ),
      ),
  });

  app.get('/api/delegation/list', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s delegations, newest first',
      response: { 200: success(z.array(ZDelegationSchema)) },
    },
    handler: async (request) => ok(await funds.listDelegations(authOf(request).user)),
  });

  app.delete('/api/delegation/revoke/:id', {
    preHandler: requireAuth,
    config: limited,
    schema: {
      tags,
      security,
      summary:
        'The SPL revoke for your wallet to sign (with ?unwrap=true also the closeAccount that unwraps your wrapped SOL); submit it with /delegation/submit',
      params: ZDelegationIdParamsSchema,
      querystring: ZDelegationRevokeQuerySchema,
      response: { 200: success(ZDelegationSchema) },
    },
    handler: async (request) =>
      ok(await funds.revokeDelegation(authOf(request).user, request.params.id, request.query.unwrap)),
  });
}

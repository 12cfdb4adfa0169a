import { Dec } from '@solterm/engine';
import { defineModule, type ModuleContext } from '../../lib/server-module';
import type { AuthService } from '../auth/auth.service';
import type { BotsService } from '../bots/bots.service';
import type { EmailService } from '../email/email.service';
import type { FuturesService } from '../futures/futures.service';
import type { MarketService } from '../market/market.service';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { BotRunActivity } from './alert-rules';
import { registerAlertsRoutes } from './alerts.routes';
import { createAlertsRepository } from './alerts.repository';
import { createAlertsService, type AlertSources } from './alerts.service';

export interface AlertsDeps {
  hub: RealtimeHub;
  email: EmailService;
  auth: AuthService;
  market: MarketService;
  bots: BotsService;
  botActivity: (botIds: readonly string[], since: Date) => Promise<BotRunActivity[]>;
  /** The futures venue's trading (absent with Drift: no positions to watch). */
  futures?: FuturesService;
  /** The operator's key (WALLET_ENCRYPTION_KEY) that webhook secrets are stored under. */
  secretKey: Uint8Array;
}

/**
 * Alerts on prices, bots and futures positions: a singleton job evaluates them (each trigger is
 * recorded once, whichever process runs it), pushes notifications on `notifications:<userId>`, and a
 * second singleton job delivers email and webhook copies with retries.
 */
export function createAlertsModule(context: ModuleContext, deps: AlertsDeps) {
  const { config, database, now, log } = context;
  const repo = createAlertsRepository(database.db, now);
  const { futures } = deps;
  const sources: AlertSources = {
    async pairPrice(pair) {
      const priced = await deps.market.getPairPrice(pair);
      return { pair: priced.pair, price: new Dec(String(priced.price)) };
    },
    async pairPriceAgo(pair, minutes) {
      const open = Math.floor(now().getTime() / 60_000) * 60 - minutes * 60;
      const { candles } = await deps.market.getClosedPairCandles(pair, '1M', open, open);
      return candles[0] ? new Dec(String(candles[0].open)) : null;
    },
    async ownsBot(userId, botId) {
      return deps.bots.get(userId, botId).then(
        () => true,
        () => false,
      );
    },
    botActivity: deps.botActivity,
    positions: futures ? (userId) => futures.positions({ id: userId }) : undefined,
    async emailOf(userId) {
      return (await deps.auth.getProfile(userId)).email;
    },
  };
  const alerts = createAlertsService({
    repo,
    sources,
    email: deps.email,
    hub: deps.hub,
    now,
    log,
    allowPrivateWebhooks: config.alerts.allowPrivateWebhooks,
    secretKey: deps.secretKey,
  });
  return defineModule({
    service: alerts,
    jobs: {
      singletons: [
        {
          name: 'alerts-evaluate',
          intervalMs: config.alerts.intervalMs,
          run: async () => void (await alerts.evaluate()),
        },
        {
          name: 'alerts-deliver',
          intervalMs: config.alerts.intervalMs,
          run: async () => void (await alerts.deliverDue()),
        },
      ],
    },
    routes(server, { requireAuth }) {
      registerAlertsRoutes(server, { alerts, requireAuth });
    },
  });
}

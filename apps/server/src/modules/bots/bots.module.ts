import type { TBacktestResult, TUserMessage } from '@solterm/contracts';
import type { JobScheduler } from '../../jobs/scheduler';
import { AppError } from '../../lib/app-error';
import { createModuleEvent, type ModuleQuestion } from '../../lib/module-events';
import { defineModule, type ModuleContext } from '../../lib/server-module';
import type { AuthService } from '../auth/auth.service';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { Relay } from '../relay/relay.service';
import type { TradingService } from '../trading/trading.service';
import type { WithdrawalLock } from '../wallet/wallet.service';
import { createBacktestExports } from './backtest/backtest-exports';
import { createBacktestPool } from './backtest/backtest-pool';
import { createBacktestRunner } from './backtest/backtest-runner';
import { backtestSubmitter, backtestTask, createBacktestStatus } from './backtest/backtest-task';
import { registerBacktestRoutes } from './backtest/backtest.routes';
import { registerBotDetailRoutes } from './bot-detail.routes';
import { resolveBotStrategy } from './bot-strategy';
import { createBotsRepository } from './bots.repository';
import { registerBotsRoutes } from './bots.routes';
import { createBotsService } from './bots.service';
import { createBotKeyHoldings } from './funds/bot-key-holdings';
import { createBotFundsRepository } from './funds/bot-funds.repository';
import { registerBotFundsRoutes } from './funds/bot-funds.routes';
import { createBotFundsService } from './funds/bot-funds.service';
import { createBotActivity } from './live/bot-activity';
import { createBotChartFills } from './live/bot-chart-fills';
import { createBotDetail } from './live/bot-detail';
import { createBotRunner } from './live/bot-runner';
import { createBotRunsRepository } from './live/bot-runs.repository';
import { createBotRunsService } from './live/bot-runs.service';
import { createLamportsValuation } from './live/bot-valuation';
import { createOnChainExecutor } from './live/onchain-executor';
import { createMarketplaceRepository } from './marketplace/marketplace.repository';
import { registerMarketplaceRoutes } from './marketplace/marketplace.routes';
import { createMarketplaceService } from './marketplace/marketplace.service';
import { createJsLiveThread } from './sandbox/js-live-thread';
import { createOptimizer } from './optimize/optimize.service';
import { registerOptimizeRoutes } from './optimize/optimize.routes';
import { createPythonSandbox, type PythonSandbox } from './sandbox/python-sandbox';

export interface BotsDeps {
  hub: RealtimeHub;
  chain: ChainService;
  market: MarketService;
  relay: Relay;
  trading: TradingService;
  auth: AuthService;
  withdrawalLock: WithdrawalLock;
  scheduler: JobScheduler;
  walletEncryptionKey: Uint8Array;
  /** Auth's question before a wallet change: this module answers it for the user's bot key. */
  holdsFundsAwaitingWallet: ModuleQuestion<string>;
}

/** Backtests: computed in a worker pool (Python in its sandbox), submitted through the scheduler. */
function createBacktests(
  { config, log, now, database }: ModuleContext,
  deps: BotsDeps,
  python: PythonSandbox,
) {
  const pool = createBacktestPool({ log, timeLimitMs: config.backtestTimeLimitMs, python });
  const exports = createBacktestExports(database.db, now);
  const status = createBacktestStatus();
  const task = backtestTask(
    createBacktestRunner({
      market: deps.market,
      pool,
      timeLimitMs: config.backtestTimeLimitMs,
      now,
      log,
      exports,
    }),
    (userId, progress) => {
      void deps.hub.publish(userId, { type: 'backtest_progress', data: progress }).catch(() => undefined);
    },
    status,
  );
  return {
    pool,
    exports,
    status,
    task,
    submit: backtestSubmitter(deps.scheduler, config.backtestTimeLimitMs),
  };
}

/**
 * Live bots: each user's bot key and delegations (funds), the runner of paper and on-chain runs, and
 * the runs service. A revoked delegation stops the user's on-chain runs: funds announce it
 * (`delegationRevoked`), the runs service — built on funds — listens.
 */
function createLiveBots({ log, now, database }: ModuleContext, deps: BotsDeps, python: PythonSandbox) {
  const { chain, market, trading } = deps;
  const runsRepo = createBotRunsRepository(database.db);
  const fundsRepo = createBotFundsRepository(database.db);
  const publish = (userId: string, message: TUserMessage) => {
    void deps.hub.publish(userId, message).catch(() => undefined);
  };
  const sandboxes = { js: createJsLiveThread({ log }), python };
  const delegationRevoked = createModuleEvent<string>();
  const funds = createBotFundsService({
    repo: fundsRepo,
    chain,
    relay: deps.relay,
    encryptionKey: deps.walletEncryptionKey,
    now,
    onRevoked: (userId) => delegationRevoked.emit(userId),
    withdrawalLock: deps.withdrawalLock,
  });
  const runner = createBotRunner({
    repo: runsRepo,
    market,
    now,
    log,
    publish,
    sandboxes,
    onChain: {
      executor: createOnChainExecutor({
        repo: fundsRepo,
        wallet: funds.wallet,
        trading,
        chain,
        now,
        log,
      }),
      walletOf: (userId) => funds.approvingWallet(userId),
    },
  });
  const runs = createBotRunsService({
    repo: runsRepo,
    market,
    runner,
    sandboxes,
    now,
    publish,
    onChain: {
      approvedAllowance: (userId) => funds.approvedAllowance(userId),
      valueOfLamports: createLamportsValuation(trading),
    },
  });
  delegationRevoked.on((userId) =>
    runs.stopOnChainRuns(userId, 'The bot stopped: its delegation was revoked'),
  );
  deps.holdsFundsAwaitingWallet.answer(createBotKeyHoldings({ repo: fundsRepo, chain }));
  const chartFills = createBotChartFills({ repo: runsRepo, market });
  return { runsRepo, funds, runner, runs, sandboxes, chartFills };
}

/**
 * Bots: definitions, backtests, live runs (paper and on-chain), bot funds, the marketplace and the
 * owner's detail view. Backtests are a task (computed where jobs run), the runner a singleton job.
 */
export function createBotsModule(context: ModuleContext, deps: BotsDeps) {
  const { log, now, database, config } = context;
  const python = createPythonSandbox({ log, timeLimitMs: config.backtestTimeLimitMs });
  const backtests = createBacktests(context, deps, python);
  const live = createLiveBots(context, deps, python);
  const botsRepo = createBotsRepository(database.db, now);
  const marketplaceRepo = createMarketplaceRepository(database.db);
  const bots = createBotsService({
    repo: botsRepo,
    backtest: backtests.submit,
    now,
    runs: live.runs,
    copyCounts: (ids) => marketplaceRepo.copyCounts(ids),
    pythonAvailability: () => python.availability(),
    cancelBacktest: (key) => backtests.pool.cancel(key),
  });
  const optimizer = createOptimizer({
    db: database.db,
    now,
    log,
    scheduler: deps.scheduler,
    market: deps.market,
    pool: backtests.pool,
    timeLimitMs: config.backtestTimeLimitMs,
    findBot: (userId, id) => botsRepo.findOwned(userId, id),
    strategyOf: (bot) => {
      const strategy = resolveBotStrategy(bot.strategyType, bot.config);
      if (strategy.spec.kind === 'python' && !python.availability().available) {
        throw new AppError('BOTS__PYTHON_UNAVAILABLE');
      }
      return strategy;
    },
    publish: (userId, progress) => {
      void deps.hub.publish(userId, { type: 'optimization_progress', data: progress }).catch(() => undefined);
    },
  });
  const botDetail = createBotDetail({
    findOwned: (userId, id) => botsRepo.findOwned(userId, id),
    repo: live.runsRepo,
    market: deps.market,
    now,
  });
  const marketplace = createMarketplaceService({
    repo: marketplaceRepo,
    bots: botsRepo,
    runs: live.runs,
    users: deps.auth,
    // A detail compares a few figures and the trades' times: it reads the answer's JSON.
    backtest: async (payload) => JSON.parse(await backtests.submit(payload)) as TBacktestResult,
    lamportsOf: (walletAddress) => deps.chain.getBalance(walletAddress),
    now,
  });
  return defineModule({
    service: bots,
    backtestExports: backtests.exports,
    backtestStatus: backtests.status,
    pythonAvailability: () => python.availability(),
    botRunner: live.runner,
    botFunds: live.funds,
    marketplace,
    botDetail,
    /** The user's bot fills on a pair in a window (the chart's markers). */
    chartFills: live.chartFills,
    /** Bots' runs and fills since an instant (bot alerts). */
    botActivity: createBotActivity(context.database.db),
    jobs: { tasks: [backtests.task, optimizer.task], singletons: [live.runner.job()] },
    routes(server, { requireAuth }) {
      registerBotsRoutes(server, { bots, requireAuth });
      registerBotDetailRoutes(server, { detail: botDetail, requireAuth });
      registerOptimizeRoutes(server, { optimizer, requireAuth });
      registerBacktestRoutes(server, { exports: backtests.exports, status: backtests.status, requireAuth });
      registerBotFundsRoutes(server, { funds: live.funds, requireAuth });
      registerMarketplaceRoutes(server, { marketplace, bots, requireAuth });
    },
    async close() {
      await backtests.pool.close();
      python.close();
      await live.sandboxes.js.close();
      // Bots' passes end once their sandboxes are gone; none may still write after the database closes.
      await live.runner.idle();
    },
  });
}

import { useState } from 'react';
import type { TBacktestResult, TBot } from '@solterm/contracts';
import { PageHeader } from '../../components/ui/page-header';
import { Card, CardBody } from '../../components/ui/card';
import { BacktestResults } from '../../features/bots/components/backtest-results';
import { BotList } from '../../features/bots/components/bot-list';
import { CreateBotForm } from '../../features/bots/components/create-bot-form';
import { DelegationsPanel } from '../../features/bots/components/delegations-panel';

/** /bots (part 2 §2): create and test a bot, edit a stopped one, and the user's bots as cards. */
export default function BotsPage() {
  const [tested, setTested] = useState<TBacktestResult | null>(null);
  const [editing, setEditing] = useState<TBot | null>(null);

  function edit(bot: TBot) {
    setEditing(bot);
    // The form is above the cards: bring it into view with the bot in it.
    document
      .querySelector('[data-testid="bot-form"]')
      ?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  return (
    <>
      <PageHeader title="Bots" description="Create, test and backtest automated trading strategies." />
      <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <CreateBotForm onTested={setTested} editing={editing} onEditDone={() => setEditing(null)} />
        {tested ? (
          <BacktestResults result={tested} title="Test results" />
        ) : (
          <Card className="hidden xl:block">
            <CardBody className="flex h-full items-center justify-center text-center text-sm text-muted">
              Run and Test Bot backtests the form's strategy over the last 30 days from 1,000 and shows the
              return, win rate and equity curve here.
            </CardBody>
          </Card>
        )}
      </div>
      <div className="mt-4 grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4">
        <BotList onEdit={edit} editingId={editing?.bot_id ?? null} />
        <DelegationsPanel />
      </div>
    </>
  );
}

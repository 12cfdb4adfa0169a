import { Bot, Code2, Gauge, KeyRound, Play, Upload } from 'lucide-react';
import { TablePreview, UpcomingPage } from '../../components/layout/upcoming';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';

const CAPABILITIES = [
  {
    icon: Bot,
    title: 'Your bots at a glance',
    text: 'Cards with strategy, trades, PnL, win rate, balance and network; running bots show their current task, time remaining and progress.',
  },
  {
    icon: Play,
    title: 'Start, stop, withdraw, delete',
    text: 'Control each bot from its card. Mainnet bots ask for a delegation approval in your wallet before the first start.',
  },
  {
    icon: Code2,
    title: 'Code editor',
    text: 'Write or paste strategy code, edit and save it, copy it, then Run and Test Bot before creating it.',
  },
  {
    icon: Upload,
    title: 'Upload a strategy',
    text: 'Drop a .zip, .py or .json file (.js also accepted); Python and JavaScript files open in the editor.',
  },
  {
    icon: KeyRound,
    title: 'Delegated funds',
    text: 'Approve 0.1–100 SOL for a bot with an SPL approval you sign; revoke it whenever you like.',
  },
  {
    icon: Gauge,
    title: 'Live updates',
    text: 'Status changes and progress stream in real time over the terminal’s websocket.',
  },
];

/** /bots: the user's trading bots (arrives with the bots issue). */
export default function BotsPage() {
  return (
    <>
      <PageHeader title="Bots" description="Create, test and run automated trading strategies." />
      <UpcomingPage
        arrivesWith="the bot runtime"
        summary="Bots trade for you with the same strategy code that backtests use, so a backtest predicts what the bot does live."
        capabilities={CAPABILITIES}
        preview={
          <Card>
            <CardHeader title="Your bots" icon={<Bot className="size-4" />} />
            <div className="opacity-40" aria-hidden="true">
              <TablePreview
                columns={['Bot', 'Strategy', 'Trades', 'PnL', 'Win rate', 'Balance', 'Network', 'Status']}
              />
            </div>
          </Card>
        }
      />
    </>
  );
}

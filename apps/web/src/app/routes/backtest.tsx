import { BarChart3, CalendarRange, FlaskConical, Percent, TrendingDown, Wallet } from 'lucide-react';
import { ChartPreview, UpcomingPage } from '../../components/layout/upcoming';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';

const CAPABILITIES = [
  {
    icon: CalendarRange,
    title: 'Pick a bot and a window',
    text: 'Choose one of your bots, a start and an end date.',
  },
  {
    icon: Wallet,
    title: 'Initial balance',
    text: 'Start from any balance of 100 or more, in steps of 100 (1000 by default).',
  },
  {
    icon: Percent,
    title: 'Results',
    text: 'Final balance, total return, trades, win rate, max drawdown, Sharpe ratio, winning and losing trades.',
  },
  {
    icon: BarChart3,
    title: 'Equity curve',
    text: 'Hourly portfolio value on one axis and drawdown from the running peak on the other.',
  },
  {
    icon: TrendingDown,
    title: 'No look-ahead',
    text: 'The strategy only ever sees candles up to the moment it decides, exactly as it would live.',
  },
];

/** /backtest: replay a bot over history (arrives with the backtest issue). */
export default function BacktestPage() {
  return (
    <>
      <PageHeader
        title="Backtest"
        description="Replay a bot over historical candles before you trust it with funds."
      />
      <UpcomingPage
        arrivesWith="the backtest runner"
        summary="Backtests run the same strategy code as live bots over stored market candles and report the metrics that matter."
        capabilities={CAPABILITIES}
        preview={
          <Card>
            <CardHeader title="Portfolio value and drawdown" icon={<FlaskConical className="size-4" />} />
            <div className="opacity-40" aria-hidden="true">
              <ChartPreview height="h-64" />
            </div>
          </Card>
        }
      />
    </>
  );
}

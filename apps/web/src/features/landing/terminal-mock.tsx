import { cn } from '../../lib/cn';
import { SAMPLE_ORDER_BOOK, sampleCandles } from './sample-market';

const CANDLES = sampleCandles(48);
const CHART_WIDTH = 480;
const CHART_HEIGHT = 200;

function CandleChart() {
  const highs = CANDLES.map((candle) => candle.high);
  const lows = CANDLES.map((candle) => candle.low);
  const max = Math.max(...highs);
  const min = Math.min(...lows);
  const toY = (price: number) => 8 + ((max - price) / (max - min)) * (CHART_HEIGHT - 16);
  const step = CHART_WIDTH / CANDLES.length;
  const last = CANDLES[CANDLES.length - 1]!;
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
      preserveAspectRatio="none"
      className="h-full w-full"
      aria-hidden="true"
    >
      {[0.2, 0.4, 0.6, 0.8].map((fraction) => (
        <line
          key={fraction}
          x1="0"
          x2={CHART_WIDTH}
          y1={CHART_HEIGHT * fraction}
          y2={CHART_HEIGHT * fraction}
          stroke="var(--color-line)"
          strokeDasharray="2 4"
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {CANDLES.map((candle, index) => {
        const isUp = candle.close >= candle.open;
        const color = isUp ? 'var(--color-up)' : 'var(--color-down)';
        const x = index * step + step / 2;
        const top = toY(Math.max(candle.open, candle.close));
        const bottom = toY(Math.min(candle.open, candle.close));
        return (
          <g key={index}>
            <line
              x1={x}
              x2={x}
              y1={toY(candle.high)}
              y2={toY(candle.low)}
              stroke={color}
              vectorEffect="non-scaling-stroke"
            />
            <rect
              x={x - step * 0.32}
              width={step * 0.64}
              y={top}
              height={Math.max(1, bottom - top)}
              fill={color}
              rx="0.5"
            />
          </g>
        );
      })}
      <line
        x1="0"
        x2={CHART_WIDTH}
        y1={toY(last.close)}
        y2={toY(last.close)}
        stroke="var(--color-up)"
        strokeOpacity="0.6"
        strokeDasharray="3 3"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

function BookRow({
  price,
  size,
  depth,
  side,
}: {
  price: string;
  size: string;
  depth: number;
  side: 'ask' | 'bid';
}) {
  return (
    <div className="relative grid grid-cols-2 px-3 py-[3px] text-[11px]">
      <span
        aria-hidden="true"
        className={cn('absolute inset-y-0 right-0', side === 'ask' ? 'bg-down/10' : 'bg-up/10')}
        style={{ width: `${depth * 100}%` }}
      />
      <span className={cn('num relative', side === 'ask' ? 'text-down' : 'text-up')}>{price}</span>
      <span className="num relative text-right text-muted">{size}</span>
    </div>
  );
}

/** A static picture of the terminal for the landing hero: chart, order book and order ticket. */
export function TerminalMock({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        'overflow-hidden rounded-xl border border-line-strong bg-panel shadow-[0_30px_80px_-20px_rgb(0_0_0/0.8),0_0_0_1px_rgb(255_255_255/0.02)]',
        className,
      )}
      aria-label="Preview of the solterm trading terminal with sample data"
      role="img"
    >
      <div className="flex h-9 items-center gap-2 border-b border-line bg-raised/60 px-3">
        <span className="size-2.5 rounded-full bg-[#ff5f57]/80" />
        <span className="size-2.5 rounded-full bg-[#febc2e]/80" />
        <span className="size-2.5 rounded-full bg-[#28c840]/80" />
        <span className="ml-3 text-[11px] text-faint">solterm — Trade</span>
      </div>
      <div className="grid grid-cols-1 md:grid-cols-[minmax(0,1fr)_180px]">
        <div className="min-w-0 border-line md:border-r">
          <div className="flex flex-wrap items-end gap-x-5 gap-y-1 border-b border-line px-4 py-3">
            <div>
              <p className="text-[11px] text-muted">SOL / USDC</p>
              <p className="num text-xl font-semibold text-up">172.45</p>
            </div>
            <div className="num text-[11px]">
              <p className="text-faint">24h change</p>
              <p className="text-up">+5.36 (+3.21%)</p>
            </div>
            <div className="num hidden text-[11px] sm:block">
              <p className="text-faint">24h high</p>
              <p>174.10</p>
            </div>
            <div className="num hidden text-[11px] sm:block">
              <p className="text-faint">24h volume</p>
              <p>3.21B</p>
            </div>
            <div className="ml-auto hidden gap-1 text-[10px] text-muted lg:flex">
              {['1M', '5M', '15M', '1H', '4H', '1D'].map((interval) => (
                <span
                  key={interval}
                  className={cn(
                    'rounded px-1.5 py-0.5',
                    interval === '15M' ? 'bg-accent-soft text-accent' : '',
                  )}
                >
                  {interval}
                </span>
              ))}
            </div>
          </div>
          <div className="h-52 px-2 py-2 sm:h-60">
            <CandleChart />
          </div>
        </div>
        <div className="hidden md:block">
          <div className="grid grid-cols-2 border-b border-line px-3 py-2 text-[10px] tracking-wide text-faint uppercase">
            <span>Price</span>
            <span className="text-right">Size</span>
          </div>
          {SAMPLE_ORDER_BOOK.asks.map((row) => (
            <BookRow key={row.price} {...row} side="ask" />
          ))}
          <div className="num border-y border-line px-3 py-1.5 text-[13px] font-semibold text-up">172.45</div>
          {SAMPLE_ORDER_BOOK.bids.map((row) => (
            <BookRow key={row.price} {...row} side="bid" />
          ))}
        </div>
      </div>
      <div className="grid grid-cols-1 gap-3 border-t border-line p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
        <div className="flex gap-2 text-[11px]">
          <span className="flex-1 rounded-md border border-line bg-canvas px-2.5 py-2">
            <span className="text-faint">Amount </span>
            <span className="num text-fg">2.500 SOL</span>
          </span>
          <span className="flex-1 rounded-md border border-line bg-canvas px-2.5 py-2">
            <span className="text-faint">Total </span>
            <span className="num text-fg">431.13 USDC</span>
          </span>
        </div>
        <div className="flex gap-2">
          <span className="flex h-8 flex-1 items-center justify-center rounded-md bg-up px-5 text-xs font-semibold text-[#04150e] sm:flex-none">
            Buy SOL
          </span>
          <span className="flex h-8 flex-1 items-center justify-center rounded-md bg-down px-5 text-xs font-semibold text-white sm:flex-none">
            Sell SOL
          </span>
        </div>
      </div>
    </div>
  );
}

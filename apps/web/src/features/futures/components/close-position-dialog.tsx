import { FUTURES_MAX_SLIPPAGE_PERCENT, type TFuturesPosition } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatFixed, formatSignedUsd, getToneClass } from '../../../lib/format';

/**
 * The confirm step before a position is closed at the market: what is sold or bought back, at
 * about which price, and the PnL that would be realized at the mark.
 */
export function ClosePositionDialog({
  position,
  priceDecimals,
  isClosing,
  onConfirm,
  onClose,
}: {
  position: TFuturesPosition | null;
  priceDecimals: number;
  isClosing: boolean;
  onConfirm: (position: TFuturesPosition) => void;
  onClose: () => void;
}) {
  const base = position?.symbol.replace(/-PERP$/, '') ?? '';
  return (
    <Modal
      title={position ? `Close ${position.symbol} ${position.side}` : 'Close position'}
      description={`A market order: it trades at the book, no further than ${FUTURES_MAX_SLIPPAGE_PERCENT}% from the oracle.`}
      isOpen={position !== null}
      isLocked={isClosing}
      onClose={onClose}
    >
      {position && (
        <div className="grid gap-3">
          <dl className="grid gap-1.5 rounded-md border border-line bg-raised/40 p-3 text-xs">
            <div className="flex justify-between gap-3">
              <dt className="text-faint">{position.side === 'Long' ? 'Sell' : 'Buy back'}</dt>
              <dd className="num text-fg">
                {position.size} {base}
              </dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-faint">Estimated price (mark)</dt>
              <dd className="num text-fg">{formatFixed(position.mark_price, priceDecimals)} USDC</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-faint">Estimated PnL</dt>
              <dd className={`num ${getToneClass(position.unrealized_pnl)}`}>
                {formatSignedUsd(position.unrealized_pnl)} USDC
              </dd>
            </div>
          </dl>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose} disabled={isClosing}>
              Keep position
            </Button>
            <Button variant="danger" onClick={() => onConfirm(position)} isLoading={isClosing}>
              Close at market
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}

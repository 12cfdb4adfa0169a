import { useQuery } from '@tanstack/react-query';
import { Flame, RotateCw } from 'lucide-react';
import { formatUsdPrice, type TEnhancedTrendingToken } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { getErrorMessage } from '../../../lib/api-client';
import {
  ChangeText,
  marketApi,
  marketKeys,
  mintOfToken,
  SafetyBadge,
  selectionFromToken,
  TokenAvatar,
  useSwitchPair,
} from '../../market';
import { orderPrefillStore } from '../order-prefill';
import { useTradability } from '../use-tradability';
import { formatCompact, formatCompactUsd } from '../../../lib/format';

const COLUMNS = 9;

function SkeletonRow() {
  return (
    <Tr>
      {Array.from({ length: COLUMNS }, (_, index) => (
        <Td key={index}>
          <span className="block h-3 w-14 animate-pulse rounded bg-raised" />
        </Td>
      ))}
    </Tr>
  );
}

/**
 * Trending Tokens on /trade (part 2 §2, §3): symbol, age, volume, market cap, holders, 24 h change,
 * price, market-cap rank and trending score with the token's image. Buy switches the pair to
 * TOKEN/SOL and leaves a prefilled buy order for the Place Order form.
 */
export function TrendingTokens({ onBuy }: { onBuy?: (token: TEnhancedTrendingToken) => void }) {
  const query = useQuery({
    queryKey: marketKeys.trending,
    queryFn: ({ signal }) => marketApi.getEnhancedTrending(signal),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
  const switchPair = useSwitchPair('trade');

  const selectionOf = (token: TEnhancedTrendingToken) =>
    selectionFromToken(
      {
        symbol: token.symbol,
        name: token.name,
        address: token.address,
        chain_id: token.chain_id ?? 'solana',
      },
      'SOL',
    );

  function buy(token: TEnhancedTrendingToken) {
    const selection = selectionOf(token);
    if (!switchPair(selection)) return;
    // The Place Order form takes it over on the new pair (part 2 §2): a market buy of the token.
    orderPrefillStore.set({
      pair: selection.pair,
      side: 'Buy',
      orderType: 'Market',
      origin: 'Trending Tokens',
    });
    onBuy?.(token);
  }

  const tokens = query.data ?? [];
  // Which TOKEN/SOL pairs can be bought here, asked once for the whole table before anyone clicks.
  const tradability = useTradability(tokens.map((token) => selectionOf(token).pair));
  return (
    <Card>
      <CardHeader
        title="Trending Tokens"
        icon={<Flame className="size-4" />}
        description="What Solana traders are buying now, hottest first"
        actions={
          query.isFetching && !query.isPending ? (
            <span className="text-[11px] text-faint">Updating…</span>
          ) : undefined
        }
      />
      {query.isError && tokens.length === 0 ? (
        <EmptyState
          title="Trending tokens could not be loaded"
          description={getErrorMessage(query.error, 'Failed to load trending tokens')}
          action={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
              <RotateCw className="size-3.5" />
              Retry
            </Button>
          }
        />
      ) : !query.isPending && tokens.length === 0 ? (
        <EmptyState icon={<Flame className="size-4" />} title="Nothing is trending right now" />
      ) : (
        <Table aria-label="Trending tokens">
          <THead>
            <tr>
              <Th className="w-10">#</Th>
              <Th>Token</Th>
              <Th isNumeric>Price</Th>
              <Th isNumeric>24h</Th>
              <Th isNumeric>Volume</Th>
              <Th isNumeric>Market cap</Th>
              <Th isNumeric>Holders</Th>
              <Th isNumeric>Age</Th>
              {/* relative: the sr-only label must stay inside the table's scroll box on phones. */}
              <Th className="relative text-right">
                <span className="sr-only">Action</span>
              </Th>
            </tr>
          </THead>
          <TBody>
            {query.isPending
              ? [0, 1, 2, 3, 4].map((row) => <SkeletonRow key={row} />)
              : tokens.map((token) => (
                  <Tr key={`${token.symbol}:${token.address ?? token.score}`} data-testid="trending-row">
                    <Td className="num text-faint">{token.score + 1}</Td>
                    <Td>
                      <div className="flex items-center gap-2.5">
                        <TokenAvatar symbol={token.symbol} image={token.thumb} size={24} />
                        <div className="min-w-0 leading-tight">
                          <p className="flex items-center gap-1.5 font-semibold">
                            <span data-testid="trending-symbol">{token.symbol}</span>
                            {(token.chain_id ?? 'solana') === 'solana' && (
                              <SafetyBadge mint={mintOfToken(token.symbol, token.address)} />
                            )}
                          </p>
                          <p className="max-w-40 truncate text-[11px] text-muted">
                            {token.name}
                            {token.market_cap_rank !== null && (
                              <span className="text-faint"> · Rank #{token.market_cap_rank}</span>
                            )}
                          </p>
                        </div>
                      </div>
                    </Td>
                    <Td isNumeric className="font-medium">
                      {token.price === null ? '—' : formatUsdPrice(token.price)}
                    </Td>
                    <Td isNumeric>
                      <ChangeText value={token.price_change_24h} />
                    </Td>
                    <Td isNumeric>{formatCompactUsd(token.total_volume)}</Td>
                    <Td isNumeric>{formatCompactUsd(token.market_cap)}</Td>
                    <Td isNumeric>{token.holders === null ? '—' : formatCompact(token.holders)}</Td>
                    <Td isNumeric className="text-muted">
                      {token.age ?? '—'}
                    </Td>
                    <Td className="text-right">
                      {tradability.byPair.get(selectionOf(token).pair)?.tradable === false ? (
                        <span
                          className="text-[11px] whitespace-nowrap text-faint"
                          title={tradability.byPair.get(selectionOf(token).pair)?.reason ?? undefined}
                          data-testid="not-tradable"
                        >
                          Not tradable
                        </span>
                      ) : (
                        <Button
                          variant="buy"
                          size="xs"
                          className="min-w-14"
                          onClick={() => buy(token)}
                          aria-label={`Buy ${token.symbol} with SOL`}
                        >
                          Buy
                        </Button>
                      )}
                    </Td>
                  </Tr>
                ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}

import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RotateCw, Users } from 'lucide-react';
import { formatUsdPrice, isSolanaAddress, shortenAddress, type THolderType } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { getErrorMessage } from '../../../lib/api-client';
import { marketApi, marketKeys } from '../api/market-api';
import type { PairSelection } from '../trading-state';
import { CopyAddress } from './market-bits';
import { formatCompact, formatFixed, formatPlainPercent } from '../../../lib/format';

/** The tabs of spec part 2 §2, with the holder_type each asks for. */
export const HOLDER_TABS: readonly { value: THolderType; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'smart', label: 'Smart 1' },
  { value: 'kol', label: 'KOL/VC12' },
  { value: 'remarks', label: 'Remarks' },
  { value: 'tracking', label: 'Tracking' },
];

const ID_BASE = 'holder-analysis';

/** A time as "3m ago", "5h ago", "2d ago"; '—' when missing. */
export function formatRelativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days}d ago`;
  return new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

function percent(value: number | null | undefined, digits = 2): string {
  return formatPlainPercent(value, digits);
}

function StatTile({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="min-w-0 bg-panel px-3 py-3 sm:px-4" title={hint}>
      <p className="text-[11px] text-faint">{label}</p>
      <p className="num mt-1 truncate text-[15px] font-semibold">{children}</p>
    </div>
  );
}

/**
 * Holder analysis of the selected pair's base token (part 2 §2, §3): top-100 stats (share owned,
 * average cost, average share sold) and the 10 largest holders of the chosen tab (All, Smart 1,
 * KOL/VC12, Remarks, Tracking) with name, share, balance, SOL balance and last activity.
 */
export function HolderAnalysis({ selection }: { selection: PairSelection }) {
  const [tab, setTab] = useState<THolderType>('all');
  const token =
    selection.chainId === 'solana' && selection.baseAddress && isSolanaAddress(selection.baseAddress)
      ? selection.baseAddress
      : selection.base;

  const stats = useQuery({
    queryKey: marketKeys.holderStats(token),
    queryFn: ({ signal }) => marketApi.getHolderStats(token, signal),
    staleTime: 60_000,
  });
  const holders = useQuery({
    queryKey: marketKeys.holders(token, tab),
    queryFn: ({ signal }) => marketApi.getHolders(token, tab, signal),
    staleTime: 60_000,
  });
  const rows = holders.data?.holders ?? [];

  return (
    <Card data-testid="holder-analysis">
      <CardHeader
        title={`Holder analysis · ${selection.base}`}
        icon={<Users className="size-4" />}
        description="Largest wallets holding the traded token"
        actions={
          stats.data ? (
            <span className="num text-[11px] text-faint">
              {formatCompact(stats.data.holder_count)} holders
            </span>
          ) : undefined
        }
      />
      <div className="grid grid-cols-3 gap-px border-b border-line bg-line">
        <StatTile label="Top 100 owned" hint="Share of the supply held by the 100 largest holders">
          {stats.isPending ? '…' : percent(stats.data?.top100_owned)}
        </StatTile>
        <StatTile label="Top 100 avg cost" hint="Balance-weighted average cost of the top 100 holders">
          {stats.isPending
            ? '…'
            : stats.data?.top100_avg_cost === null || stats.data?.top100_avg_cost === undefined
              ? '—'
              : formatUsdPrice(stats.data.top100_avg_cost)}
        </StatTile>
        <StatTile
          label="Top 100 avg sold"
          hint="Average share of what each top-100 holder acquired that it sold"
        >
          {stats.isPending ? '…' : percent(stats.data?.top100_avg_sold)}
        </StatTile>
      </div>

      <div className="px-4 pt-3">
        <Tabs
          idBase={ID_BASE}
          value={tab}
          onChange={setTab}
          items={HOLDER_TABS}
          variant="underline"
          ariaLabel="Holder type"
        />
      </div>
      <TabPanel idBase={ID_BASE} value={tab} className="pb-1">
        {holders.isError ? (
          <EmptyState
            title="Holders could not be loaded"
            description={getErrorMessage(holders.error, 'Failed to load holder analysis')}
            action={
              <Button variant="secondary" size="sm" onClick={() => void holders.refetch()}>
                <RotateCw className="size-3.5" />
                Retry
              </Button>
            }
          />
        ) : !holders.isPending && rows.length === 0 ? (
          <EmptyState
            icon={<Users className="size-4" />}
            title="No holders in this category"
            description="No wallet of this kind holds the token."
          />
        ) : (
          <Table aria-label="Holders">
            <THead>
              <tr>
                <Th className="w-8">#</Th>
                <Th>Holder</Th>
                <Th isNumeric>Owned</Th>
                <Th isNumeric>Balance</Th>
                <Th isNumeric>SOL balance</Th>
                <Th isNumeric>Last activity</Th>
              </tr>
            </THead>
            <TBody>
              {holders.isPending
                ? [0, 1, 2, 3, 4].map((row) => (
                    <Tr key={row}>
                      {[0, 1, 2, 3, 4, 5].map((cell) => (
                        <Td key={cell}>
                          <span className="block h-3 w-14 animate-pulse rounded bg-raised" />
                        </Td>
                      ))}
                    </Tr>
                  ))
                : rows.map((holder, index) => (
                    <Tr key={holder.address} data-testid="holder-row">
                      <Td className="num text-faint">{index + 1}</Td>
                      <Td>
                        {holder.name === shortenAddress(holder.address) ? (
                          <CopyAddress
                            address={holder.address}
                            className="[&>span:first-child]:text-[13px] [&>span:first-child]:text-fg"
                          />
                        ) : (
                          <div className="min-w-0 leading-tight">
                            <p className="max-w-56 truncate font-medium">{holder.name}</p>
                            <CopyAddress address={holder.address} />
                          </div>
                        )}
                      </Td>
                      <Td isNumeric>
                        <div className="flex items-center justify-end gap-2">
                          <span className="hidden h-1 w-12 overflow-hidden rounded-full bg-raised sm:block">
                            <span
                              className="block h-full rounded-full bg-accent"
                              style={{
                                width: `${Math.min(100, Math.max(0, holder.owned_percentage))}%`,
                              }}
                            />
                          </span>
                          {percent(holder.owned_percentage)}
                        </div>
                      </Td>
                      <Td isNumeric title={String(holder.balance)}>
                        {formatCompact(holder.balance)}
                      </Td>
                      <Td isNumeric>{formatFixed(holder.sol_balance, 2)}</Td>
                      <Td isNumeric className="text-muted">
                        {formatRelativeTime(holder.last_activity)}
                      </Td>
                    </Tr>
                  ))}
            </TBody>
          </Table>
        )}
      </TabPanel>
    </Card>
  );
}

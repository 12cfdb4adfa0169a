import { useEffect, useState } from 'react';
import { ChevronLeft, ChevronRight, RotateCw, Search, Store } from 'lucide-react';
import { BOT_MESSAGES } from '@solterm/contracts';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { SegmentedControl } from '../../components/ui/segmented-control';
import { Skeleton } from '../../components/ui/skeleton';
import { getErrorMessage } from '../../lib/api-client';
import { BotDetailPanel } from '../../features/marketplace/components/bot-detail-panel';
import { MarketplaceTable } from '../../features/marketplace/components/marketplace-table';
import type { MarketplaceRisk } from '../../features/marketplace/marketplace-api';
import { MARKETPLACE_PAGE_SIZE, useMarketplace } from '../../features/marketplace/use-marketplace';

const RISKS: readonly MarketplaceRisk[] = ['All', 'Low', 'Medium', 'High'];
const SEARCH_DEBOUNCE_MS = 300;

/** /market (part 2 §2 Market): search and filter public bots, open one, copy it. */
export default function MarketPage() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [risk, setRisk] = useState<MarketplaceRisk>('All');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const bots = useMarketplace(query, risk, page);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(text.trim());
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const total = bots.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MARKETPLACE_PAGE_SIZE));
  return (
    <>
      <PageHeader
        title="Marketplace"
        description="Bots published by traders, with records the platform verifies from their own fills."
      />
      <div
        className={
          selected
            ? 'grid min-w-0 items-start gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]'
            : 'grid min-w-0 gap-4'
        }
      >
        <Card className="min-w-0">
          <CardHeader
            title="Public bots"
            icon={<Store className="size-4" />}
            description={bots.data ? `${total} bot${total === 1 ? '' : 's'}` : undefined}
          />
          <div className="flex flex-wrap items-end gap-3 border-b border-line px-4 py-3">
            <div className="min-w-0 flex-1 basis-56">
              <Input
                aria-label="Search bots"
                placeholder="Search by name, creator or strategy"
                value={text}
                maxLength={100}
                onChange={(event) => setText(event.target.value)}
                leading={<Search className="size-3.5" />}
              />
            </div>
            <SegmentedControl
              ariaLabel="Risk"
              value={risk}
              onChange={(value) => {
                setRisk(value);
                setPage(0);
              }}
              options={RISKS.map((value) => ({ value, label: value }))}
            />
          </div>
          {bots.isError && !bots.data ? (
            <EmptyState
              title={BOT_MESSAGES.marketplaceLoadFailed}
              description={getErrorMessage(bots.error, BOT_MESSAGES.marketplaceLoadFailed)}
              action={
                <Button size="sm" variant="secondary" onClick={() => void bots.refetch()}>
                  <RotateCw className="size-3.5" /> Retry
                </Button>
              }
            />
          ) : bots.isPending ? (
            <div className="grid gap-2 p-4" aria-busy="true">
              {[0, 1, 2, 3].map((key) => (
                <Skeleton key={key} className="h-9" />
              ))}
            </div>
          ) : bots.data.bots.length === 0 ? (
            <EmptyState
              title={query || risk !== 'All' ? 'No bots match' : 'No public bots yet'}
              description={
                query || risk !== 'All'
                  ? 'Try another name, creator or strategy, or another risk level.'
                  : 'Publish one of yours from /bots to list it here.'
              }
            />
          ) : (
            <>
              <MarketplaceTable bots={bots.data.bots} selectedId={selected} onView={setSelected} />
              {pages > 1 && (
                <div className="flex items-center justify-end gap-2 border-t border-line px-4 py-2 text-xs text-muted">
                  <span className="num">
                    Page {page + 1} of {pages}
                  </span>
                  <Button
                    size="xs"
                    variant="ghost"
                    disabled={page === 0}
                    onClick={() => setPage(page - 1)}
                    aria-label="Previous page"
                  >
                    <ChevronLeft className="size-3.5" />
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    disabled={page + 1 >= pages}
                    onClick={() => setPage(page + 1)}
                    aria-label="Next page"
                  >
                    <ChevronRight className="size-3.5" />
                  </Button>
                </div>
              )}
            </>
          )}
        </Card>
        {selected && <BotDetailPanel botId={selected} onClose={() => setSelected(null)} />}
      </div>
    </>
  );
}

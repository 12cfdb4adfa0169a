import type { ModuleContext, ServerModule } from '../../lib/server-module';
import { createChainService, type ChainService, type ChainServiceDeps } from './chain.service';

/** JSON-RPC to the chain: over HTTP at `rpcUrl`, or through `transport` (the embedded cluster's handler). */
export function createChainModule(
  { log, now }: ModuleContext,
  deps: Pick<ChainServiceDeps, 'rpcUrl' | 'transport' | 'wrapTransport' | 'pubsub'>,
): ServerModule<ChainService> {
  return { service: createChainService({ ...deps, now, log }) };
}
